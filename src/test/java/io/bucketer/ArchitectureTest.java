package io.bucketer;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * How bucketer's packages may depend on each other and on the libraries that tie code to a runtime:
 * no cycle among them, and each of Kafka Streams, the MongoDB driver, the HTTP server, the embedded
 * broker and the MongoDB stand-in used only where it is named here. The lists say where each is
 * used today; narrowing them is issue 14's work, and a new use elsewhere fails this test.
 */
class ArchitectureTest {

  private static final JavaClasses PRODUCT =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.bucketer");

  @Test
  void shouldHaveNoCycleAmongItsPackages() {
    slices().matching("io.bucketer.(*)..").should().beFreeOfCycles().check(PRODUCT);
  }

  @Test
  void shouldKeepTheBucketsTheWindowLifecycleAndTheDecodingFreeOfKafkaMongoDbAndHttp() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "io.bucketer.buckets..", "io.bucketer.windows..", "io.bucketer.ingest..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "org.apache.kafka..", "com.mongodb..", "org.bson..", "com.sun.net.httpserver..")
        .because("they are plain Java, tested without a broker or a database")
        .check(PRODUCT);
  }

  @Test
  void shouldReadStoredBucketsKnowingOnlyTheDocumentsNotHowTheyAreWritten() {
    noClasses()
        .that()
        .resideInAPackage("io.bucketer.query..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.bucketer.sink..", "io.bucketer.topology..", "io.bucketer.topics..")
        .because("the bucket documents' names are in buckets.BucketDocumentNames")
        .check(PRODUCT);
  }

  /** What bucketer-run.jar leaves out: only the tools and the command line reach for the tools. */
  @Test
  void shouldKeepTheRuntimeFreeOfTheDemoAndTheBenchmarks() {
    noClasses()
        .that()
        .resideOutsideOfPackages(
            "io.bucketer.bench..", "io.bucketer.embedded..", "io.bucketer.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.bucketer.bench..", "io.bucketer.embedded..")
        .check(PRODUCT);
  }

  @Test
  void shouldUseTheEmbeddedBrokerAndTheMongoDbStandInOnlyInTheToolsThatStartThem() {
    noClasses()
        .that()
        .resideOutsideOfPackages("io.bucketer.embedded..", "io.bucketer.bench..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("kafka..", "scala..", "de.bwaldvogel..")
        .because("the processor runs against a real cluster and a real MongoDB")
        .check(PRODUCT);
  }

  @Test
  void shouldUseKafkaStreamsOnlyWhereTheTopologyIsBuiltRunOrQueried() {
    noClasses()
        .that()
        .resideOutsideOfPackages(
            "io.bucketer.topology..",
            "io.bucketer.state..",
            "io.bucketer.app..",
            "io.bucketer.http..",
            "io.bucketer.cli..",
            "io.bucketer.bench..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.apache.kafka.streams..")
        .check(PRODUCT);
  }

  @Test
  void shouldUseTheMongoDbDriverOnlyWhereBucketsAreWrittenOrRead() {
    noClasses()
        .that()
        .resideOutsideOfPackages(
            "io.bucketer.sink..",
            "io.bucketer.query..",
            "io.bucketer.config..",
            "io.bucketer.app..",
            "io.bucketer.cli..",
            "io.bucketer.bench..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.mongodb..", "org.bson..")
        .check(PRODUCT);
  }

  @Test
  void shouldServeHttpOnlyFromTheHttpPackageAndTheEmbeddedRegistry() {
    noClasses()
        .that()
        .resideOutsideOfPackages("io.bucketer.http..", "io.bucketer.embedded..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.sun.net.httpserver..")
        .check(PRODUCT);
  }
}
