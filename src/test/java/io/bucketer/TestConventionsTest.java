package io.bucketer;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;

/** Rules every test class keeps, checked over the compiled tests. */
class TestConventionsTest {

  private static final JavaClasses TESTS =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
          .importPackages("io.bucketer");

  /**
   * A {@code *Test} may start a server that lives in the test's JVM and starts in milliseconds (the
   * JDK's HTTP server, the MongoDB stand-in, the in-process registry, a TCP proxy): it is the unit
   * test of code that speaks HTTP or MongoDB's wire protocol. A Kafka broker or another JVM makes
   * it an {@code *IT}, run by {@code mvn verify} after the unit tests.
   */
  @Test
  void shouldStartNoBrokerAndNoOtherJvmInAUnitTest() {
    noClasses()
        .that()
        .haveSimpleNameEndingWith("Test")
        .should()
        .dependOnClassesThat()
        .haveSimpleName("EmbeddedKafkaBroker")
        .orShould()
        .dependOnClassesThat()
        .haveSimpleName("MongoServerProcess")
        .orShould()
        .dependOnClassesThat()
        .haveSimpleName("SinkConnectorProcess")
        .orShould()
        .dependOnClassesThat()
        .haveSimpleName("LocalInfrastructure")
        .orShould()
        .dependOnClassesThat()
        .haveSimpleName("IsolatedRun")
        .orShould()
        .dependOnClassesThat()
        .haveSimpleName("InProcessRun")
        .check(TESTS);
  }

  @Test
  void shouldNameEveryTestMethodShouldSomething() {
    methods()
        .that()
        .areAnnotatedWith(Test.class)
        .or()
        .areAnnotatedWith(ParameterizedTest.class)
        .should()
        .haveNameMatching("should[A-Z].*")
        .because("one style reads as a list of what the code does")
        .check(TESTS);
  }

  @Test
  void shouldGiveEveryIntegrationTestATimeout() {
    classes()
        .that()
        .haveSimpleNameEndingWith("IT")
        .and()
        .doNotHaveModifier(JavaModifier.ABSTRACT)
        .should()
        .beAnnotatedWith(Timeout.class)
        .because("a hung broker or process must fail its test, not hold CI until its limit")
        .check(TESTS);
  }
}
