package io.bucketer.config;

import static io.bucketer.config.SettingValidators.span;
import static io.bucketer.config.SettingValidators.spanOfAtLeast;

import com.google.protobuf.Descriptors.Descriptor;
import io.bucketer.buckets.TimeSpans;
import io.bucketer.ingest.FieldPath;
import io.bucketer.ingest.InputFormat;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.ingest.RegistryAuth;
import io.bucketer.ingest.SensorIdSource;
import io.bucketer.ingest.formats.FormatOptions;
import io.bucketer.ingest.formats.InputDecoders;
import io.bucketer.ingest.protobuf.DescriptorSetDecoder;
import io.bucketer.ingest.protobuf.DescriptorSetFile;
import io.bucketer.ingest.senml.SenmlEncoding;
import io.bucketer.ingest.senml.SenmlMetric;
import io.bucketer.ingest.senml.SenmlOptions;
import io.bucketer.ingest.senml.SkippedValues;
import io.bucketer.ingest.sparkplug.SparkplugSettings;
import io.bucketer.ingest.sparkplug.SparkplugTopicSource;
import io.bucketer.security.ClientTls;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * What the input is ({@code input.*}: its topic, format and which fields make a reading), where its
 * writer schemas are ({@code schema.registry.*}), and which readings are refused before they reach
 * a window (timestamp floor, future skew, size); and their typed values, read through {@link
 * BucketerConfig#input()}.
 */
public final class InputSettings {

  public static final String TOPIC = "input.topic";
  public static final String TOPIC_MISSING = "input.topic.missing";
  public static final String FORMAT = "input.format";
  public static final String SENSOR_ID_FIELD = "input.sensor.id.field";
  public static final String SENSOR_ID_FROM = "input.sensor.id.from";
  public static final String SENSOR_ID_PREFIX = "input.sensor.id.prefix";
  public static final String TIME_FIELD = "input.time.field";
  public static final String METRIC_FIELD = "input.metric.field";
  public static final String UTC_OFFSET_FIELD = "input.utc.offset.field";
  public static final String VALUE_FIELDS = "input.value.fields";
  public static final String SENML_ENCODING = "input.senml.encoding";
  public static final String SENML_METRIC = "input.senml.metric";
  public static final String PROTOBUF_DESCRIPTOR_FILE = "input.protobuf.descriptor.file";
  public static final String PROTOBUF_MESSAGE = "input.protobuf.message";
  public static final String JSON_SCHEMA_VALIDATE = "input.json.schema.validate";
  public static final String SPARKPLUG_TOPIC_FROM = "input.sparkplug.topic.from";
  public static final String SPARKPLUG_BOOLEANS = "input.sparkplug.booleans";
  public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
  public static final String SCHEMA_REGISTRY_USER_INFO = "schema.registry.basic.auth.user.info";
  public static final String SCHEMA_REGISTRY_BEARER_TOKEN = "schema.registry.bearer.token";
  public static final String SCHEMA_REGISTRY_TLS_CA_FILE = "schema.registry.tls.ca.file";
  public static final String SCHEMA_REGISTRY_TLS_CERT_FILE = "schema.registry.tls.cert.file";
  public static final String SCHEMA_REGISTRY_TLS_KEY_FILE = "schema.registry.tls.key.file";
  public static final String SCHEMA_REGISTRY_TLS_KEY_PASSWORD = "schema.registry.tls.key.password";
  public static final String SCHEMA_REGISTRY_RETRY_TIMEOUT = "schema.registry.retry.timeout";
  public static final String TIMESTAMP_FLOOR = "timestamp.floor";
  public static final String MAX_FUTURE_SKEW = "max.future.skew";
  public static final String MAX_READING_BYTES = "max.reading.bytes";

  static final ConfigDef DEFINITION =
      new ConfigDef()
          .define(
              TOPIC,
              Type.STRING,
              "iot.readings",
              Importance.HIGH,
              "Topic of the readings (see input.format).")
          .define(
              TOPIC_MISSING,
              Type.STRING,
              "wait",
              ConfigDef.ValidString.in("wait", "fail"),
              Importance.MEDIUM,
              "What run does when input.topic does not exist: wait (the default) checks again,"
                  + " backing off up to 30s, and starts processing once it exists, alive but not"
                  + " ready meanwhile, saying so in one line at most once a minute; fail ends the"
                  + " process with exit code 3 and that line. With input.partitioning=by-sensor"
                  + " the topic must exist at start either way: its partitions lay out the state.")
          .define(
              FORMAT,
              Type.STRING,
              InputFormat.AVRO.label(),
              ConfigDef.ValidString.in(
                  InputFormat.AVRO.label(),
                  InputFormat.JSON.label(),
                  InputFormat.SENML.label(),
                  InputFormat.PROTOBUF.label(),
                  InputFormat.JSON_SCHEMA.label(),
                  InputFormat.SPARKPLUG_B.label()),
              Importance.HIGH,
              "What the input records' values are. avro: Schema Registry framed Avro (magic byte"
                  + " 0, schema id, Avro binary) of any writer schema; the input.*.field settings"
                  + " say which fields make the readings, located in each writer schema once per"
                  + " schema id. json: one UTF-8 JSON object per record, no registry; a value that"
                  + " is not one goes to the dead-letter topic (malformed-json). senml: one SenML"
                  + " pack (RFC 8428) per record, in JSON or CBOR (input.senml.encoding), no"
                  + " registry; each numeric value and sum is a reading, its sensor id the"
                  + " resolved name (base name + name), its metric as input.senml.metric says; the"
                  + " input.*.field and input.sensor.id.* settings are refused. protobuf: Schema Registry framed"
                  + " Protobuf (magic byte 0, schema id, message indexes, Protobuf binary) of the"
                  + " registered .proto schema and its references; or, with"
                  + " input.protobuf.descriptor.file, bare Protobuf binary without a registry."
                  + " json-schema: Schema Registry framed JSON (magic byte 0, schema id, one JSON"
                  + " object), read as json is; see input.json.schema.validate."
                  + " sparkplug-b: Sparkplug B payloads as an"
                  + " MQTT bridge writes them, with the MQTT topic in the key or a header"
                  + " (input.sparkplug.*); the readings are the numeric metrics of NDATA and DDATA"
                  + " messages, named through the BIRTH messages' aliases, sensor id group/edge or"
                  + " group/edge/device; the input.*.field and input.sensor.id.* settings are"
                  + " refused, and"
                  + " input.partitioning must be any. See 'Sparkplug B input'.")
          .define(
              SENSOR_ID_FIELD,
              Type.STRING,
              "sensor_id",
              new FieldPathSetting(false),
              Importance.MEDIUM,
              "Field of the input records holding the sensor id: a string, or an integer taken as"
                  + " its decimal digits. Dotted for a field of a nested record (meta.deviceId), as"
                  + " are all input.*.field settings; in Avro a field is found by its name or, once"
                  + " renamed, by an alias the writer schema gives it. A record without it goes to"
                  + " the dead-letter topic (missing-field), as does every record of a writer"
                  + " schema that lacks it.")
          .define(
              SENSOR_ID_FROM,
              Type.STRING,
              "field",
              new SensorIdFrom(),
              Importance.MEDIUM,
              "Where a record's sensor id is. field: in its payload, at input.sensor.id.field."
                  + " key: the record's key, as UTF-8 text, as MQTT bridges often key records by"
                  + " device or topic. header:<name>: the last header of that name, as UTF-8 text."
                  + " A record whose key or header is absent, empty or not UTF-8 goes to the"
                  + " dead-letter topic (no-sensor-id). With input.partitioning=by-sensor, records"
                  + " must be keyed by the sensor id itself either way.")
          .define(
              SENSOR_ID_PREFIX,
              Type.STRING,
              "",
              Importance.LOW,
              "With the sensor id from the key or a header: a prefix to strip from it (devices/"
                  + " for a key devices/pump-7). A key or header without it goes to the"
                  + " dead-letter topic (no-sensor-id): another device family's, or a bridge"
                  + " set up otherwise. Empty: none. Not with input.sensor.id.from=field, nor with"
                  + " input.partitioning=by-sensor (its partitions are Kafka's over the whole"
                  + " key).")
          .define(
              TIME_FIELD,
              Type.STRING,
              "timestamp",
              new FieldPathSetting(false),
              Importance.MEDIUM,
              "Field holding the readings' event time: in Avro a long of timestamp-millis,"
                  + " timestamp-micros (converted to milliseconds) or plain epoch milliseconds; in"
                  + " JSON an ISO-8601 instant with its offset (2025-06-01T09:00:00Z) or an integer"
                  + " of epoch milliseconds; in Protobuf a google.protobuf.Timestamp or a 64-bit"
                  + " integer of epoch milliseconds. Missing: missing-field; of another kind:"
                  + " not-a-time.")
          .define(
              METRIC_FIELD,
              Type.STRING,
              "metric",
              new FieldPathSetting(true),
              Importance.MEDIUM,
              "Field naming what was measured (a string; absent or null: no metric). Empty: no"
                  + " metric field, and the readings of each value field take the field's own name"
                  + " (its last segment) as their metric, for records that hold several values."
                  + " With a metric field, input.value.fields must name exactly one field.")
          .define(
              UTC_OFFSET_FIELD,
              Type.STRING,
              "utc_offset_minutes",
              new FieldPathSetting(true),
              Importance.LOW,
              "Field holding the gateway's offset from UTC in minutes (an int), kept in the"
                  + " bucket documents; empty: none.")
          .define(
              VALUE_FIELDS,
              Type.LIST,
              "value",
              new FieldPathList(),
              Importance.MEDIUM,
              "Fields holding the measured values, comma-separated: in Avro int, long, float or"
                  + " double (or a union of one with null), in JSON numbers, in Protobuf any integer"
                  + " or floating-point field or wrapper type (an unset optional or wrapper is"
                  + " absent; a plain proto3 scalar is read as sent, 0 included). Each one a record"
                  + " holds gives one reading; a null or absent one is skipped (a value field a"
                  + " writer schema lacks too), and a record with no value goes to the dead-letter"
                  + " topic (no-values). A value that is not a number: not-a-number, the whole"
                  + " record; a repeated one: repeated-field."
                  + " * alone: every numeric top-level field of a record (in Avro, of its writer"
                  + " schema, without a logical type; in Protobuf, of its message type, not"
                  + " repeated) but the sensor id, time and UTC offset fields is a value, its"
                  + " metric the field's name, so that a gateway that adds a measurement needs no"
                  + " settings change: a writer schema's new field is a new series. Not with"
                  + " input.metric.field.")
          .define(
              PROTOBUF_DESCRIPTOR_FILE,
              Type.STRING,
              "",
              Importance.MEDIUM,
              "With input.format=protobuf and no registry: a FileDescriptorSet file written by"
                  + " protoc --include_imports --descriptor_set_out=FILE. Every record value is"
                  + " then the bare Protobuf binary of one input.protobuf.message, without a"
                  + " header. Read at start; a file that is not one, or lacks the message, stops"
                  + " the start. Empty: the values are registry framed.")
          .define(
              PROTOBUF_MESSAGE,
              Type.STRING,
              "",
              Importance.MEDIUM,
              "The full name of the message type (com.example.GatewayReading) in"
                  + " input.protobuf.descriptor.file that every record value is. Registry framed"
                  + " records name their message themselves (the message indexes).")
          .define(
              JSON_SCHEMA_VALIDATE,
              Type.BOOLEAN,
              false,
              Importance.LOW,
              "With input.format=json-schema: check each body against the JSON schema registered"
                  + " under its schema id (with its references; compiled once per id) and send one"
                  + " that breaks it to the dead-letter topic (schema-violation, naming the first"
                  + " violation's path and rule). Off by default: the registry is then not asked,"
                  + " and the body needs only the input.*.field fields.")
          .define(
              SENML_ENCODING,
              Type.STRING,
              SenmlEncoding.JSON.label(),
              ConfigDef.ValidString.in(SenmlEncoding.JSON.label(), SenmlEncoding.CBOR.label()),
              Importance.MEDIUM,
              "With input.format=senml: json reads application/senml+json packs (an array of"
                  + " objects, labels bn, bt, n, v, ...), cbor application/senml+cbor ones (an"
                  + " array of maps keyed by RFC 8428's integers, bn -2, n 0, v 2, ...). A value"
                  + " that is not such a pack goes to the dead-letter topic (malformed-senml).")
          .define(
              SENML_METRIC,
              Type.STRING,
              SenmlMetric.UNIT.toString(),
              new SenmlMetricSetting(),
              Importance.MEDIUM,
              "With input.format=senml, the readings' metric. unit: the record's unit (u, else"
                  + " the base unit bu; no metric without one), so the unit is kept and values of"
                  + " different units never share a window. none: no metric, the unit dropped."
                  + " Any other text: that metric for every reading, the unit dropped. A record's"
                  + " sum (s) is a series of its own, its metric the value's with _sum appended"
                  + " (kWh_sum), or sum. The sensor id is the resolved name (bn + n).")
          .define(
              SPARKPLUG_TOPIC_FROM,
              Type.STRING,
              SparkplugTopicSource.KEY,
              new TopicSourceSetting(),
              Importance.MEDIUM,
              "With input.format=sparkplug-b: where each record holds its MQTT topic"
                  + " (spBv1.0/group/type/edge[/device]). key: the record key, as Kafka Connect's"
                  + " MQTT sources and HiveMQ's and EMQX's Kafka bridges write it. header:<name>:"
                  + " the record's header of that name, e.g. header:mqtt_topic. A record without"
                  + " it goes to the dead-letter topic (sparkplug-no-topic).")
          .define(
              SPARKPLUG_BOOLEANS,
              Type.BOOLEAN,
              false,
              Importance.LOW,
              "With input.format=sparkplug-b: Boolean metrics as readings of 1 (true) and 0"
                  + " (false). Off: they are skipped and counted"
                  + " (bucketer_sparkplug_metrics_skipped_total{reason=\"boolean\"}).")
          .define(
              SCHEMA_REGISTRY_URL,
              Type.STRING,
              "",
              Importance.HIGH,
              "Schema Registry REST endpoint(s) holding the readings' writer schemas. Required"
                  + " with input.format=avro, with protobuf unless input.protobuf.descriptor.file"
                  + " is set, and with json-schema when input.json.schema.validate is true; unused"
                  + " with json, senml and sparkplug-b.")
          .define(
              SCHEMA_REGISTRY_USER_INFO,
              Type.PASSWORD,
              null,
              Importance.MEDIUM,
              "user:password for the registry's HTTP basic authentication, if it needs one"
                  + " (never printed; ${file:...} or ${dir:...} keeps it out of the settings)."
                  + " Not with schema.registry.bearer.token.")
          .define(
              SCHEMA_REGISTRY_BEARER_TOKEN,
              Type.PASSWORD,
              null,
              Importance.MEDIUM,
              "Token the registry client sends as Authorization: Bearer <token> (an API token,"
                  + " or an OAuth access token the platform renews in a file: it is read at"
                  + " start). Never printed; give it as ${dir:...} or ${file:...}. Not with"
                  + " schema.registry.basic.auth.user.info.")
          .define(
              SCHEMA_REGISTRY_TLS_CA_FILE,
              Type.STRING,
              "",
              Importance.MEDIUM,
              "PEM bundle of the CAs an https:// registry's certificate must chain to, instead of"
                  + " the JVM's trust store. Read at start.")
          .define(
              SCHEMA_REGISTRY_TLS_CERT_FILE,
              Type.STRING,
              "",
              Importance.MEDIUM,
              "PEM file of the client certificate chain, leaf first, shown to an https:// registry"
                  + " that asks for one (mutual TLS). Needs schema.registry.tls.key.file. Read at"
                  + " start.")
          .define(
              SCHEMA_REGISTRY_TLS_KEY_FILE,
              Type.STRING,
              "",
              Importance.MEDIUM,
              "PEM file of the client certificate's private key: PKCS#8, PKCS#1 (RSA) or SEC1"
                  + " (EC), encrypted or not.")
          .define(
              SCHEMA_REGISTRY_TLS_KEY_PASSWORD,
              Type.PASSWORD,
              null,
              Importance.LOW,
              "Password of an encrypted schema.registry.tls.key.file (never printed; give it as"
                  + " ${file:...}).")
          .define(
              SCHEMA_REGISTRY_RETRY_TIMEOUT,
              Type.STRING,
              "30s",
              spanOfAtLeast(1_000),
              Importance.LOW,
              "How long a schema lookup retries an unreachable registry (connection errors, 5xx,"
                  + " 429) before giving up; the stream thread is then replaced and resumes from its"
                  + " last commit, after a pause of about the consumer's session.timeout.ms."
                  + " Readings are never dead-lettered for it. Keep it under max.poll.interval.ms.")
          .define(
              TIMESTAMP_FLOOR,
              Type.STRING,
              "2000-01-01T00:00:00Z",
              new IsoInstant(),
              Importance.LOW,
              "Readings timestamped before this instant go to the dead-letter topic"
                  + " (timestamp-before-floor): a gateway whose clock was never set sends times"
                  + " near 1970.")
          .define(
              MAX_FUTURE_SKEW,
              Type.STRING,
              "1h",
              span(),
              Importance.LOW,
              "Readings timestamped further than this ahead of the processor's wall clock go to"
                  + " the dead-letter topic (timestamp-in-future): accepted, they would move their"
                  + " series' event time ahead and close its open windows early.")
          .define(
              MAX_READING_BYTES,
              Type.INT,
              65_536,
              ConfigDef.Range.atLeast(64),
              Importance.LOW,
              "Input records whose value is larger than this many bytes go to the dead-letter"
                  + " topic (record-too-large) without being decoded: a reading takes well under"
                  + " a hundred bytes.");

  private final AbstractConfig values;
  private final ReadingMapping readingMapping;
  private final FormatOptions formatOptions;
  private final RegistryAuth registryAuth;
  private final Optional<ClientTls> registryTls;

  /**
   * @throws ConfigException when the input cannot be read as configured: Avro without a registry,
   *     or a mapping that cannot work, so that the start stops
   */
  InputSettings(final AbstractConfig values) {
    this.values = values;
    refuseTheMappingWhereUnused();
    this.readingMapping = buildReadingMapping();
    this.formatOptions = new FormatOptions(readProtobufMessage(), jsonSchemaValidate(), senml());
    if (InputDecoders.needsRegistry(format(), formatOptions) && schemaRegistryUrl().isBlank()) {
      throw new ConfigException(
          SCHEMA_REGISTRY_URL,
          schemaRegistryUrl(),
          "must be set with input.format="
              + format().label()
              + (format() == InputFormat.PROTOBUF
                  ? " unless " + PROTOBUF_DESCRIPTOR_FILE + " is set"
                  : "")
              + (format() == InputFormat.JSON_SCHEMA
                  ? " and " + JSON_SCHEMA_VALIDATE + "=true"
                  : ""));
    }
    this.registryAuth = readRegistryAuth();
    this.registryTls = readRegistryTls();
  }

  /**
   * What the format takes besides the mapping: a descriptor set's message, validation, SenML's
   * options ({@link #senml()}: the caller says how its skipped values are counted).
   */
  public FormatOptions formatOptions() {
    return formatOptions;
  }

  /** Whether the input's decoder asks a schema registry. */
  public boolean needsSchemaRegistry() {
    return InputDecoders.needsRegistry(format(), formatOptions);
  }

  private boolean jsonSchemaValidate() {
    final boolean validate = values.getBoolean(JSON_SCHEMA_VALIDATE);
    if (validate && format() != InputFormat.JSON_SCHEMA) {
      throw new ConfigException(
          JSON_SCHEMA_VALIDATE, true, "applies only to input.format=json-schema");
    }
    return validate;
  }

  /**
   * The message type of the descriptor set, checked against the mapping, so that a file or a
   * mapping that cannot work stops the start, not every record.
   */
  private Optional<Descriptor> readProtobufMessage() {
    final String file = values.getString(PROTOBUF_DESCRIPTOR_FILE);
    final String message = values.getString(PROTOBUF_MESSAGE);
    if (file.isBlank()) {
      if (!message.isBlank()) {
        throw new ConfigException(
            PROTOBUF_MESSAGE,
            message,
            "applies only with "
                + PROTOBUF_DESCRIPTOR_FILE
                + ": registry framed records name their message themselves");
      }
      return Optional.empty();
    }
    if (format() != InputFormat.PROTOBUF) {
      throw new ConfigException(
          PROTOBUF_DESCRIPTOR_FILE, file, "applies only to input.format=protobuf");
    }
    if (message.isBlank()) {
      throw new ConfigException(
          PROTOBUF_MESSAGE, message, "must name the message type with " + PROTOBUF_DESCRIPTOR_FILE);
    }
    try {
      final Descriptor type = DescriptorSetFile.message(Path.of(file), message.strip());
      new DescriptorSetDecoder(type, readingMapping);
      return Optional.of(type);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(PROTOBUF_DESCRIPTOR_FILE, file, e.getMessage());
    }
  }

  /** How Sparkplug B input is read; meaningful only with input.format=sparkplug-b. */
  public SparkplugSettings sparkplug() {
    return new SparkplugSettings(
        SparkplugTopicSource.parse(values.getString(SPARKPLUG_TOPIC_FROM)),
        values.getBoolean(SPARKPLUG_BOOLEANS));
  }

  /** How the registry client proves who it is. */
  public RegistryAuth schemaRegistryAuth() {
    return registryAuth;
  }

  /** The registry client's TLS files, read and checked; empty: the JVM's trust store. */
  public Optional<ClientTls> schemaRegistryTls() {
    return registryTls;
  }

  private RegistryAuth readRegistryAuth() {
    final String userInfo = schemaRegistryUserInfo();
    final Password token = values.getPassword(SCHEMA_REGISTRY_BEARER_TOKEN);
    if (userInfo != null && token != null) {
      throw new ConfigException(
          SCHEMA_REGISTRY_USER_INFO
              + " and "
              + SCHEMA_REGISTRY_BEARER_TOKEN
              + " are both set: the registry would take one and ignore the other; keep one");
    }
    if (token != null) {
      // A file's content comes with its final line break, which no header value may hold.
      final String bearer = token.value().strip();
      if (bearer.isEmpty() || bearer.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
        throw new ConfigException(
            SCHEMA_REGISTRY_BEARER_TOKEN + " must be one token, without spaces or line breaks");
      }
      return RegistryAuth.bearer(bearer);
    }
    return userInfo == null ? RegistryAuth.none() : RegistryAuth.basic(userInfo);
  }

  private Optional<ClientTls> readRegistryTls() {
    final Optional<ClientTls> tls = ClientTlsFiles.read(values, "schema.registry.tls");
    if (tls.isPresent()
        && !schemaRegistryUrl().isBlank()
        && Arrays.stream(schemaRegistryUrl().split(","))
            .map(String::strip)
            .filter(url -> !url.isEmpty())
            .anyMatch(url -> !url.regionMatches(true, 0, "https://", 0, 8))) {
      throw new ConfigException(
          "schema.registry.tls.* files are set, but "
              + SCHEMA_REGISTRY_URL
              + " names a plain http:// registry: use https://, or drop the files");
    }
    return tls;
  }

  /** True when a missing input topic must end the process rather than be waited for. */
  public boolean failWhenTopicMissing() {
    return "fail".equals(values.getString(TOPIC_MISSING));
  }

  public String topic() {
    return values.getString(TOPIC);
  }

  public InputFormat format() {
    return InputFormat.of(values.getString(FORMAT));
  }

  /** How input.format=senml reads packs; its skipped values are not counted yet. */
  public SenmlOptions senml() {
    return new SenmlOptions(
        SenmlEncoding.of(values.getString(SENML_ENCODING)),
        SenmlMetric.parse(values.getString(SENML_METRIC)),
        SkippedValues.NONE);
  }

  /** Which fields of an input record make its readings. */
  public ReadingMapping readingMapping() {
    return readingMapping;
  }

  private ReadingMapping buildReadingMapping() {
    final List<String> fields = values.getList(VALUE_FIELDS);
    final boolean allNumeric = fields.equals(List.of(ReadingMapping.ALL_NUMERIC));
    try {
      return new ReadingMapping(
          FieldPath.parse(values.getString(SENSOR_ID_FIELD)),
          FieldPath.parse(values.getString(TIME_FIELD)),
          optionalFieldPath(METRIC_FIELD),
          optionalFieldPath(UTC_OFFSET_FIELD),
          allNumeric ? List.of() : fields.stream().map(FieldPath::parse).toList(),
          allNumeric,
          sensorIdSource());
    } catch (IllegalArgumentException e) {
      throw new ConfigException(
          VALUE_FIELDS,
          String.join(",", fields),
          e.getMessage() + " (" + METRIC_FIELD + "=" + values.getString(METRIC_FIELD) + ")");
    }
  }

  /**
   * SenML packs and Sparkplug B births name their sensors and metrics themselves: a field mapping
   * set for them would be ignored without a word, and a user would believe it applied.
   */
  private void refuseTheMappingWhereUnused() {
    final InputFormat format = format();
    if (format != InputFormat.SENML && format != InputFormat.SPARKPLUG_B) {
      return;
    }
    for (final String name :
        List.of(
            SENSOR_ID_FIELD,
            SENSOR_ID_FROM,
            SENSOR_ID_PREFIX,
            TIME_FIELD,
            METRIC_FIELD,
            UTC_OFFSET_FIELD,
            VALUE_FIELDS)) {
      if (values.originals().containsKey(name)) {
        throw new ConfigException(
            name,
            values.originals().get(name),
            "unused with "
                + FORMAT
                + "="
                + format.label()
                + ", whose records name their sensors and metrics themselves: remove it");
      }
    }
  }

  private SensorIdSource sensorIdSource() {
    final String prefix = values.getString(SENSOR_ID_PREFIX);
    if (!prefix.isEmpty()
        && KafkaSettings.PARTITIONING_BY_SENSOR.equals(
            values.getString(KafkaSettings.INPUT_PARTITIONING))) {
      throw new ConfigException(
          SENSOR_ID_PREFIX,
          prefix,
          "with "
              + KafkaSettings.INPUT_PARTITIONING
              + "="
              + KafkaSettings.PARTITIONING_BY_SENSOR
              + " records are keyed by their sensor id itself: no prefix can be stripped");
    }
    try {
      return SensorIdSource.parse(values.getString(SENSOR_ID_FROM), prefix);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(SENSOR_ID_PREFIX, prefix, e.getMessage());
    }
  }

  private Optional<FieldPath> optionalFieldPath(final String name) {
    final String path = values.getString(name);
    return path.isBlank() ? Optional.empty() : Optional.of(FieldPath.parse(path));
  }

  public String schemaRegistryUrl() {
    return values.getString(SCHEMA_REGISTRY_URL);
  }

  public String schemaRegistryUserInfo() {
    final Password userInfo = values.getPassword(SCHEMA_REGISTRY_USER_INFO);
    // A file's content comes with its final line break, which would become part of the password.
    return userInfo == null ? null : userInfo.value().replaceAll("[\\r\\n]+$", "");
  }

  public Duration schemaRegistryRetryTimeout() {
    return TimeSpans.parse(values.getString(SCHEMA_REGISTRY_RETRY_TIMEOUT));
  }

  public Instant timestampFloor() {
    return Instant.parse(values.getString(TIMESTAMP_FLOOR));
  }

  public Duration maxFutureSkew() {
    return TimeSpans.parse(values.getString(MAX_FUTURE_SKEW));
  }

  public int maxReadingBytes() {
    return values.getInt(MAX_READING_BYTES);
  }

  /** A dotted field path; {@code optional}: or empty, for none. */
  private static final class FieldPathSetting implements ConfigDef.Validator {
    private final boolean optional;

    FieldPathSetting(final boolean optional) {
      this.optional = optional;
    }

    @Override
    public void ensureValid(final String name, final Object value) {
      final String path = value == null ? "" : value.toString();
      if (optional && path.isBlank()) {
        return;
      }
      try {
        FieldPath.parse(path);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return (optional ? "empty, or a" : "a") + " field name, dotted for a nested field";
    }
  }

  private static final class FieldPathList implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      @SuppressWarnings("unchecked") // a LIST setting's value
      final List<String> paths = (List<String>) value;
      if (paths == null || paths.isEmpty()) {
        throw new ConfigException(name, value, "at least one value field is needed");
      }
      if (paths.equals(List.of(ReadingMapping.ALL_NUMERIC))) {
        return;
      }
      for (final String path : paths) {
        new FieldPathSetting(false).ensureValid(name, path);
      }
    }

    @Override
    public String toString() {
      return "comma-separated field names, dotted for nested fields; or * for every numeric"
          + " field";
    }
  }

  private static final class SensorIdFrom implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      try {
        SensorIdSource.parse(String.valueOf(value), "");
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "field, key or header:<name>";
    }
  }

  private static final class SenmlMetricSetting implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      try {
        SenmlMetric.parse(value == null ? "" : value.toString());
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "unit, none, or a metric name";
    }
  }

  /** {@code key} or {@code header:<name>}. */
  private static final class TopicSourceSetting implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      try {
        SparkplugTopicSource.parse(value == null ? null : value.toString());
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "key, or header:<name>";
    }
  }

  private static final class IsoInstant implements ConfigDef.Validator {
    @Override
    public void ensureValid(final String name, final Object value) {
      try {
        Instant.parse(String.valueOf(value));
      } catch (DateTimeParseException e) {
        throw new ConfigException(name, value, "not an ISO-8601 instant: " + e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "an ISO-8601 instant in UTC, e.g. 2000-01-01T00:00:00Z";
    }
  }
}
