package io.bucketer;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.mongodb.ConnectionString;
import com.mongodb.MongoCredential;
import com.mongodb.reactivestreams.client.MongoDatabase;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/**
 * How bucketer's packages may depend on each other and on the libraries that tie code to a runtime:
 * no cycle among them, and each of Kafka Streams, the MongoDB driver, the HTTP server, the embedded
 * broker and the MongoDB stand-in used only where it is named here; a new use elsewhere fails this
 * test.
 */
class ArchitectureTest {

  private static final JavaClasses PRODUCT =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.bucketer");

  /**
   * Every package on its own, subpackages included: {@code ingest} and the formats built on it
   * ({@code ingest.protobuf}, {@code ingest.senml}, ...) depend one way, and the one class that
   * knows them all is above them ({@code ingest.formats.InputDecoders}).
   */
  @Test
  void shouldHaveNoCycleAmongItsPackages() {
    slices().matching("io.bucketer.(**)").should().beFreeOfCycles().check(PRODUCT);
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
            "org.apache.kafka..",
            "com.mongodb..",
            "org.bson..",
            "com.sun.net.httpserver..",
            "org.eclipse.jetty..")
        .because("they are plain Java, tested without a broker or a database")
        .check(PRODUCT);
  }

  /**
   * Schema text is parsed where records are decoded: .proto by wire-schema and JSON Schema by
   * networknt, both inside ingest; wire's internal encoder of descriptors only in the one class
   * whose test guards that route against a wire upgrade (ProtoSchemaCompilerTest).
   */
  @Test
  void shouldParseSchemaTextOnlyInIngestAndWiresInternalsInOneClass() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.bucketer.ingest..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.squareup.wire..", "com.networknt..")
        .check(PRODUCT);
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName("io.bucketer.ingest.protobuf.ProtoSchemaCompiler")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.squareup.wire.schema.internal..")
        .because("an internal API of wire, used in one place, on purpose")
        .check(PRODUCT);
  }

  @Test
  void shouldSayWhatKafkaAccessBucketerNeedsFromItsSettingsAndKafkasClientsAlone() {
    noClasses()
        .that()
        .resideInAPackage("io.bucketer.kafkaaccess..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.bucketer.app..",
            "io.bucketer.topology..",
            "io.bucketer.sink..",
            "io.bucketer.http..",
            "io.bucketer.cli..",
            "org.apache.kafka.streams..",
            "com.mongodb..")
        .because(
            "the ACL list and the refusal's one line serve the processor, the README's test and a"
                + " future check command alike")
        .check(PRODUCT);
  }

  /**
   * The dead-letter tools read and write topics with Kafka's plain clients and decode with the
   * input's own decoders: no consumer group, no topology, no MongoDB, and nothing of the command
   * line, so that another front (an HTTP endpoint, say) could use them as they are.
   */
  @Test
  void shouldReadAndReplayDeadLettersWithPlainKafkaClientsAndTheInputsDecoders() {
    noClasses()
        .that()
        .resideInAPackage("io.bucketer.deadletters..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.bucketer.app..",
            "io.bucketer.topology..",
            "io.bucketer.sink..",
            "io.bucketer.query..",
            "io.bucketer.http..",
            "io.bucketer.cli..",
            "org.apache.kafka.streams..",
            "com.mongodb..",
            "org.bson..")
        .because(
            "the topology and the sink write the dead letters; these tools only read them back")
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

  /**
   * A resink copies the buckets the topic holds into MongoDB through the sink's writer, so that its
   * documents and its revision guard are the sink's: it computes no bucket, and talks to MongoDB
   * only through the sink.
   */
  @Test
  void shouldResinkThroughTheSinkWithoutComputingBuckets() {
    noClasses()
        .that()
        .resideInAPackage("io.bucketer.resink..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.bucketer.windows..",
            "io.bucketer.topology..",
            "io.bucketer.app..",
            "io.bucketer.http..",
            "io.bucketer.query..",
            "io.bucketer.cli..",
            "org.apache.kafka.streams..",
            "com.mongodb..",
            "org.bson..")
        .because("the sink's document and write model are the only ones")
        .check(PRODUCT);
  }

  /**
   * A backfill computes rolled-up windows with the stream's own merge and document cutting, reads
   * the stored documents through the query side's reader and writes through the sink's writer: it
   * holds no second copy of the windowing, of the document format or of the write model. It hands
   * the writer's database handle to the reader, and uses nothing else of the driver.
   */
  @Test
  void shouldBackfillWithTheStreamsMergeTheQuerysReaderAndTheSinksWriter() {
    noClasses()
        .that()
        .resideInAPackage("io.bucketer.backfill..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.bucketer.windows..",
            "io.bucketer.topology..",
            "io.bucketer.topics..",
            "io.bucketer.resink..",
            "io.bucketer.app..",
            "io.bucketer.http..",
            "io.bucketer.cli..",
            "org.apache.kafka..",
            "org.bson..")
        .because(
            "the stream's buckets, the sink's documents and the query's reader are the only ones")
        .check(PRODUCT);
    noClasses()
        .that()
        .resideInAPackage("io.bucketer.backfill..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("com.mongodb..").and(not(equivalentTo(MongoDatabase.class))))
        .because("it reads through query.StoredWindows and writes through sink.MongoBucketWriter")
        .check(PRODUCT);
  }

  /**
   * A reprocessing moves the processor's committed offsets with Kafka's admin client: it reads no
   * record, computes no bucket and writes no document; the processor it restarts does.
   */
  @Test
  void shouldReprocessWithKafkasAdminClientAlone() {
    noClasses()
        .that()
        .resideInAPackage("io.bucketer.reprocess..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.bucketer.windows..",
            "io.bucketer.topology..",
            "io.bucketer.app..",
            "io.bucketer.sink..",
            "io.bucketer.cli..",
            "org.apache.kafka.streams..",
            "org.apache.kafka.clients.producer..",
            "com.mongodb..",
            "org.bson..")
        .because("the processor replaces what it wrote; this only moves where it reads from")
        .check(PRODUCT);
  }

  /**
   * A rescale plans a handover and starts a consumer group with Kafka's admin client: it copies no
   * state, reads no record and writes no document; the two deployments do the rest.
   */
  @Test
  void shouldRescaleWithKafkasAdminClientAlone() {
    noClasses()
        .that()
        .resideInAPackage("io.bucketer.rescale..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.bucketer.windows..",
            "io.bucketer.topology..",
            "io.bucketer.app..",
            "io.bucketer.sink..",
            "io.bucketer.cli..",
            "org.apache.kafka.streams..",
            "org.apache.kafka.clients.producer..",
            "com.mongodb..",
            "org.bson..")
        .because("the deployments hand the input over between them; this only plans and follows it")
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
            "io.bucketer.recovery..",
            "io.bucketer.http..",
            "io.bucketer.cli..",
            "io.bucketer.bench..",
            "io.bucketer.config..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.apache.kafka.streams..")
        .check(PRODUCT);
  }

  /** The settings check kafka.* names against the ones Kafka Streams defines, and only that. */
  @Test
  void shouldReadOnlyKafkaStreamsSettingNamesInTheConfiguration() {
    noClasses()
        .that()
        .resideInAPackage("io.bucketer.config..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("org.apache.kafka.streams..")
                .and(not(equivalentTo(StreamsConfig.class))))
        .check(PRODUCT);
  }

  /**
   * The configuration checks a connection string with the driver's own parser, so that a setting
   * the driver would refuse fails at startup, naming the setting, and reads the credential it
   * parsed (to refuse two logins at once); it opens no connection.
   */
  @Test
  void shouldTalkToMongoDbOnlyWhereBucketsAreWrittenOrReadBack() {
    noClasses()
        .that()
        .resideOutsideOfPackages(
            "io.bucketer.sink..",
            "io.bucketer.query..",
            "io.bucketer.bench..",
            // its own rule: shouldBackfillWithTheStreamsMergeTheQuerysReaderAndTheSinksWriter
            "io.bucketer.backfill..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("com.mongodb..")
                .and(not(equivalentTo(ConnectionString.class)))
                .and(not(equivalentTo(MongoCredential.class))))
        .because("the sink writes the documents and the query package reads them")
        .check(PRODUCT);
  }

  @Test
  void shouldHandleBsonDocumentsOnlyWhereTheyAreWrittenReadOrShown() {
    noClasses()
        .that()
        .resideOutsideOfPackages(
            "io.bucketer.sink..", "io.bucketer.query..", "io.bucketer.cli..", "io.bucketer.bench..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.bson..")
        .because("the demo prints documents as MongoDB stores them; nothing else sees BSON")
        .check(PRODUCT);
  }

  /**
   * Certificates, keys and credentials serve the HTTP listener, the MongoDB client and the registry
   * client alike: the package knows none of them, only PEM files, the JDK's TLS and Bouncy Castle.
   */
  @Test
  void shouldKeepTheSecurityMaterialFreeOfTheServersAndClientsThatUseIt() {
    noClasses()
        .that()
        .resideInAPackage("io.bucketer.security..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.bucketer.http..",
            "io.bucketer.sink..",
            "io.bucketer.ingest..",
            "io.bucketer.config..",
            "org.apache.kafka..",
            "com.mongodb..",
            "org.eclipse.jetty..",
            "com.sun.net.httpserver..")
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

  /** CBOR is SenML's second encoding (RFC 8428 section 6): nothing else reads or writes it. */
  @Test
  void shouldReadAndWriteCborOnlyForSenml() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.bucketer.ingest.senml..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.fasterxml.jackson.dataformat.cbor..")
        .because("the SenML decoder and encoder are the only users of CBOR")
        .check(PRODUCT);
  }

  /**
   * DDSketch stays behind ValueSketch: the rest of bucketer sees bucketer's own bytes, pinned by a
   * golden file, so a library upgrade cannot change stored sketches unnoticed (docs/quantiles.md).
   */
  @Test
  void shouldUseTheQuantileSketchLibraryOnlyInTheSketchPackage() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.bucketer.sketch..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.datadoghq..")
        .because("io.bucketer.sketch.ValueSketch is the one way to a sketch")
        .check(PRODUCT);
  }

  /**
   * A sketch is a plain value that buckets, windows, topics and documents will carry: it depends on
   * none of them, so none of them meets a package cycle by holding one.
   */
  @Test
  void shouldKeepTheSketchFreeOfBucketersOtherPackages() {
    classes()
        .that()
        .resideInAPackage("io.bucketer.sketch..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("io.bucketer.sketch..", "java..", "com.datadoghq..")
        .check(PRODUCT);
  }

  @Test
  void shouldKeepJettyInsideTheClassesThatStartTheServer() {
    noClasses()
        .that()
        .doNotHaveFullyQualifiedName("io.bucketer.http.OpsServer")
        .and()
        .doNotHaveFullyQualifiedName("io.bucketer.http.JettyAdapter")
        .and()
        .doNotHaveFullyQualifiedName("io.bucketer.http.JsonErrorHandler")
        .and()
        .doNotHaveFullyQualifiedName("io.bucketer.http.TlsMaterial")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.eclipse.jetty..")
        .because("the endpoints see only HttpCall and HttpAnswer: the server can be replaced")
        .check(PRODUCT);
  }
}
