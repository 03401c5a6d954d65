package io.bucketer.ingest;

import java.util.Objects;

/**
 * A record value that can never become readings, whatever is retried: the caller routes it to the
 * dead-letter topic with {@link Reason#label()} as the reason header.
 *
 * <p>Checked on purpose: a bad record is an expected, per-record outcome that the topology must
 * handle (dead-letter and continue), and the compiler should force every caller to decide. It is
 * deliberately unrelated to {@link SchemaRegistryException}, which is unchecked and means "the
 * registry could not answer": that must stop or pause processing, never dead-letter data.
 */
public final class InvalidReadingException extends Exception {

  private static final long serialVersionUID = 1L;

  /** Why a record was rejected; {@link #label()} is the stable value for dead-letter headers. */
  public enum Reason {
    /** Null, shorter than the 5-byte header, or a magic byte other than 0. */
    NOT_WIRE_FORMAT("not-wire-format"),
    /** The registry answered that the frame's schema id does not exist (error code 40403). */
    UNKNOWN_SCHEMA_ID("unknown-schema-id"),
    /**
     * The writer schema exists but cannot be read: it is not a record, or (bucketer's own {@code
     * Reading} read without a mapping, {@link ReadingDecoder}) it does not resolve to {@code
     * Reading}.
     */
    INCOMPATIBLE_SCHEMA("incompatible-schema"),
    /**
     * The Avro body does not decode with its writer schema (truncated, bad varint, extra bytes).
     */
    MALFORMED_AVRO("malformed-avro"),
    /**
     * The sensor id or time field of the mapping is absent or null in the record, or not in its
     * writer schema at all (then every record of that schema).
     */
    MISSING_FIELD("missing-field"),
    /**
     * The time field is not a time: in Avro not a long (timestamp-millis, timestamp-micros or plain
     * epoch milliseconds); in JSON neither an ISO-8601 instant nor an integer of epoch
     * milliseconds; in SenML not a finite instant, or relative to "now" in a Kafka record without a
     * timestamp.
     */
    NOT_A_TIME("not-a-time"),
    /** A value field holds something other than a number (in Avro: a non-numeric type). */
    NOT_A_NUMBER("not-a-number"),
    /**
     * The sensor id is not a string or an integer, the metric not a string, or the UTC offset not
     * an integer.
     */
    WRONG_TYPE("wrong-type"),
    /**
     * None of the value fields has a value: the record holds no reading. In SenML: no record of the
     * pack has a value or a sum.
     */
    NO_VALUES("no-values"),
    /** With input.format=json: the value is not one UTF-8 JSON object. */
    MALFORMED_JSON("malformed-json"),
    /**
     * With the sensor id taken from the record key or a header (input.sensor.id.from): it is
     * absent, empty, not UTF-8, or lacks the prefix to strip.
     */
    NO_SENSOR_ID("no-sensor-id"),
    /**
     * With input.format=senml: not a SenML pack (not a JSON or CBOR array of records, no record at
     * all, a field of the wrong type or given twice, a record with more than one value, records of
     * different versions).
     */
    MALFORMED_SENML("malformed-senml"),
    /** A SenML pack of a version (bver) higher than RFC 8428's 10, which must not be used. */
    UNSUPPORTED_SENML_VERSION("unsupported-senml-version"),
    /** A SenML record with a value whose name, base name and name concatenated, is empty. */
    SENML_NO_NAME("senml-no-name"),
    /** A SenML name with characters RFC 8428 section 4.5.1 does not allow. */
    SENML_INVALID_NAME("senml-invalid-name"),
    /**
     * A SenML field this reader does not know whose label ends with '_': RFC 8428 section 4.4 says
     * such a pack must be refused.
     */
    SENML_MUST_UNDERSTAND("senml-must-understand"),
    /**
     * With input.format=protobuf: the body does not parse as the message its schema and message
     * indexes name (truncated, a bad tag or varint, a proto2 required field missing), or the
     * message-index array after the registry header is not one.
     */
    MALFORMED_PROTOBUF("malformed-protobuf"),
    /** The message indexes of a Protobuf frame name no message of the frame's schema. */
    UNKNOWN_MESSAGE_INDEX("unknown-message-index"),
    /**
     * A mapped field is repeated (a list of values, not one), or the mapped paths cross more than
     * one repeated message field: which element would a reading come from?
     */
    REPEATED_FIELD("repeated-field"),
    /**
     * With input.format=json-schema and input.json.schema.validate=true: the body breaks the JSON
     * schema it was registered with; the message names the first violation's path and rule.
     */
    SCHEMA_VIOLATION("schema-violation"),
    /** Sparkplug B: the record has no topic where input.sparkplug.topic.from says it is. */
    SPARKPLUG_NO_TOPIC("sparkplug-no-topic"),
    /** Sparkplug B: the topic is not {@code spBv1.0/group/type/edge[/device]} (or STATE's). */
    SPARKPLUG_BAD_TOPIC("sparkplug-bad-topic"),
    /** Sparkplug B: the topic's message type is none of NBIRTH, NDATA, ..., STATE. */
    SPARKPLUG_UNKNOWN_MESSAGE_TYPE("sparkplug-unknown-message-type"),
    /**
     * Sparkplug B: the value is not a Sparkplug B payload, or a metric has neither name nor alias.
     */
    SPARKPLUG_MALFORMED_PAYLOAD("sparkplug-malformed-payload"),
    /**
     * Sparkplug B: a BIRTH that cannot define its metrics: one without a name or a datatype, or two
     * with one name or one alias. The node's (or device's) earlier birth is forgotten with it.
     */
    SPARKPLUG_BAD_BIRTH("sparkplug-bad-birth"),
    /**
     * Sparkplug B: a DATA metric sent by an alias that no BIRTH of its node (or device) defined:
     * sent before its birth, or after a new NBIRTH and before its device's rebirth. Replay it after
     * the (re)birth.
     */
    UNKNOWN_ALIAS("unknown-alias"),
    /** Sparkplug B: a DATA metric sent by a name that no BIRTH defined, without a datatype. */
    SPARKPLUG_UNKNOWN_METRIC("sparkplug-unknown-metric"),
    /**
     * Sparkplug B: a numeric metric's value is in a field its datatype does not use (a string for a
     * Double), or absent without is_null.
     */
    SPARKPLUG_VALUE_TYPE_MISMATCH("sparkplug-value-type-mismatch"),
    /** Sparkplug B: a DATA metric without a timestamp, in a payload without one. */
    SPARKPLUG_NO_TIMESTAMP("sparkplug-no-timestamp");

    private final String label;

    Reason(final String label) {
      this.label = label;
    }

    /**
     * Kebab-case name, spelled out rather than derived so that renaming a constant can't change it.
     */
    public String label() {
      return label;
    }
  }

  private final Reason reason;
  private final String detail;

  public InvalidReadingException(final Reason reason, final String message) {
    this(reason, message, null);
  }

  public InvalidReadingException(final Reason reason, final String message, final Throwable cause) {
    super(Objects.requireNonNull(reason, "reason").label() + ": " + message, cause);
    this.reason = reason;
    this.detail = message;
  }

  public Reason reason() {
    return reason;
  }

  /** The message without its reason label: to reject a later record for the same cause. */
  public String detail() {
    return detail;
  }
}
