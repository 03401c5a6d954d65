package io.bucketer;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Rules every test class keeps, checked over the compiled tests. */
class TestConventionsTest {

  private static final JavaClasses TESTS =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
          .importPackages("io.bucketer");

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
