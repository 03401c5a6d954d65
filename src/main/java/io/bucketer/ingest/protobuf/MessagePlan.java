package io.bucketer.ingest.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor.JavaType;
import com.google.protobuf.Descriptors.FieldDescriptor.Type;
import com.google.protobuf.Message;
import io.bucketer.avro.Reading;
import io.bucketer.ingest.FieldPath;
import io.bucketer.ingest.InputRecord;
import io.bucketer.ingest.InvalidReadingException;
import io.bucketer.ingest.InvalidReadingException.Reason;
import io.bucketer.ingest.ReadingMapping;
import io.bucketer.ingest.SensorIdSource;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How the messages of one Protobuf message type become readings under a {@link ReadingMapping},
 * compiled once per type (per schema id and message indexes). Each mapped path is located in the
 * descriptor, field by field, and its type checked here, so that a type that can never satisfy the
 * mapping is rejected as a whole, with the field named.
 *
 * <p>The rules, as the README states them:
 *
 * <ul>
 *   <li>A dotted path goes through nested messages; a message field that is not set makes every
 *       field under it absent.
 *   <li>Presence: a field that tracks it (a message, a proto3 {@code optional}, a proto2 field, a
 *       oneof member) is absent when not set. A proto3 scalar without {@code optional} cannot tell
 *       0 from "not sent": it is read as it is, 0 included, because a proto3 writer omits a
 *       measured 0.0 from the wire. A gateway that means "no value" uses {@code optional} or a
 *       wrapper type. The exception is the sensor id: an empty string is no id ({@code
 *       missing-field}).
 *   <li>The wrapper types ({@code google.protobuf.DoubleValue}, {@code Int64Value}, {@code
 *       StringValue}, ...) stand for their value, absent when the wrapper is not set.
 *   <li>Time: {@code google.protobuf.Timestamp} (to the millisecond, rounded down), or a 64-bit
 *       integer of epoch milliseconds.
 *   <li>Sensor id: a string or an integer of any width (unsigned ones read unsigned), as decimal
 *       digits. Metric: a string or an enum, whose value's name is the metric. UTC offset: a 32-bit
 *       integer of minutes. Values: any integer or floating-point type.
 *   <li>Repeated fields: a mapped path may cross one repeated message field (the same one for every
 *       path that crosses one); each of its elements then gives its readings, with the fields
 *       outside it (a gateway's id, say) shared. A mapped field that is itself repeated, or paths
 *       that cross two repeated fields, are refused ({@code repeated-field}).
 *   <li>{@code input.value.fields=*}: every numeric field at the top of the message type (a scalar
 *       or a numeric wrapper, not repeated), except the ones mapped as sensor id, time or UTC
 *       offset, each with its own name as the metric. An unset optional or wrapper gives no
 *       reading; a plain proto3 number gives one, 0 included, as for named value fields.
 *   <li>The sensor id may come from the record key or a header instead (input.sensor.id.from).
 * </ul>
 */
final class MessagePlan {

  private static final Set<Type> INTEGERS =
      EnumSet.of(
          Type.INT32,
          Type.INT64,
          Type.UINT32,
          Type.UINT64,
          Type.SINT32,
          Type.SINT64,
          Type.FIXED32,
          Type.FIXED64,
          Type.SFIXED32,
          Type.SFIXED64);
  private static final Set<Type> LONGS =
      EnumSet.of(Type.INT64, Type.UINT64, Type.SINT64, Type.FIXED64, Type.SFIXED64);
  private static final Set<Type> INTS = EnumSet.of(Type.INT32, Type.SINT32, Type.SFIXED32);
  private static final Set<Type> NUMBERS = numbers();
  private static final Set<Type> UNSIGNED_32 = EnumSet.of(Type.UINT32, Type.FIXED32);
  private static final Set<Type> UNSIGNED_64 = EnumSet.of(Type.UINT64, Type.FIXED64);
  private static final String TIMESTAMP = "google.protobuf.Timestamp";
  // The wrapper types by full name, each standing for its field number 1, "value".
  private static final Map<String, Type> WRAPPERS =
      Map.of(
          "google.protobuf.DoubleValue", Type.DOUBLE,
          "google.protobuf.FloatValue", Type.FLOAT,
          "google.protobuf.Int64Value", Type.INT64,
          "google.protobuf.UInt64Value", Type.UINT64,
          "google.protobuf.Int32Value", Type.INT32,
          "google.protobuf.UInt32Value", Type.UINT32,
          "google.protobuf.BoolValue", Type.BOOL,
          "google.protobuf.StringValue", Type.STRING,
          "google.protobuf.BytesValue", Type.BYTES);

  private final String what;
  private final Descriptor type;
  private final SensorIdSource sensorIdSource;
  // Null when the sensor id is the record key's or a header's.
  private final Located sensorId;
  private final Located time;
  private final Located metric;
  private final Located utcOffset;
  private final boolean metricField;
  private final List<Located> values;
  private final List<String> valueMetrics;
  // The path to the one repeated message field the mapping crosses; null when none.
  private final FieldDescriptor[] repeated;

  private MessagePlan(final Compiler compiled) {
    this.what = compiled.what;
    this.type = compiled.type;
    this.sensorIdSource = compiled.sensorIdSource;
    this.sensorId = compiled.sensorId;
    this.time = compiled.time;
    this.metric = compiled.metric;
    this.utcOffset = compiled.utcOffset;
    this.metricField = compiled.metricField;
    this.values = List.copyOf(compiled.values);
    this.valueMetrics = List.copyOf(compiled.valueMetrics);
    this.repeated = compiled.repeated;
  }

  /**
   * @param what the message type, for messages ("schema id 7, message test.Reading")
   * @throws InvalidReadingException when no message of {@code type} can satisfy {@code mapping};
   *     the message names the field
   */
  static MessagePlan compile(final String what, final Descriptor type, final ReadingMapping mapping)
      throws InvalidReadingException {
    return new MessagePlan(new Compiler(what, type, mapping));
  }

  /** The message type the plan reads. */
  Descriptor type() {
    return type;
  }

  /** The readings of one message of {@link #type()}, the value of {@code record}. */
  List<Reading> readings(final Message message, final InputRecord record)
      throws InvalidReadingException {
    final String outsideId = sensorId == null ? sensorIdSource.outside(record) : null;
    if (repeated == null) {
      final List<Reading> readings = new ArrayList<>(values.size());
      add(message, null, outsideId, readings);
      if (readings.isEmpty()) {
        throw new InvalidReadingException(
            Reason.NO_VALUES, what + ": none of the value fields " + valueMetrics + " has a value");
      }
      return readings;
    }
    final Message holder = parentOf(message, repeated);
    final FieldDescriptor list = repeated[repeated.length - 1];
    final int count = holder == null ? 0 : holder.getRepeatedFieldCount(list);
    final List<Reading> readings = new ArrayList<>(count * values.size());
    for (int i = 0; i < count; i++) {
      add(message, (Message) holder.getRepeatedField(list, i), outsideId, readings);
    }
    if (readings.isEmpty()) {
      throw new InvalidReadingException(
          Reason.NO_VALUES,
          what
              + ": no element of the repeated field "
              + dotted(repeated)
              + " has any of the value fields "
              + valueMetrics);
    }
    return readings;
  }

  private void add(
      final Message message,
      final Message element,
      final String outsideId,
      final List<Reading> readings)
      throws InvalidReadingException {
    final String id = outsideId != null ? outsideId : sensorId(sensorId.read(message, element));
    final Instant at = time(time.read(message, element));
    final String metricValue = metric == null ? null : metric(metric.read(message, element));
    final Object offset = utcOffset == null ? null : utcOffset.read(message, element);
    for (int i = 0; i < values.size(); i++) {
      final Object value = values.get(i).read(message, element);
      if (value != null) {
        readings.add(
            new Reading(
                id,
                at,
                number(values.get(i), value),
                metricField ? metricValue : valueMetrics.get(i),
                (Integer) offset));
      }
    }
  }

  private String sensorId(final Object id) throws InvalidReadingException {
    if (id == null || "".equals(id)) {
      throw new InvalidReadingException(
          Reason.MISSING_FIELD, what + ": the sensor id field " + sensorId.path + " is absent");
    }
    if (id instanceof Integer small) {
      return sensorId.unsigned ? Integer.toUnsignedString(small) : small.toString();
    }
    if (id instanceof Long large) {
      return sensorId.unsigned ? Long.toUnsignedString(large) : large.toString();
    }
    return (String) id;
  }

  private Instant time(final Object value) throws InvalidReadingException {
    if (value == null) {
      throw new InvalidReadingException(
          Reason.MISSING_FIELD, what + ": the time field " + time.path + " is absent");
    }
    if (value instanceof Message timestamp) {
      final Descriptor stamp = timestamp.getDescriptorForType();
      final long seconds = (Long) timestamp.getField(stamp.findFieldByNumber(1));
      final int nanos = (Integer) timestamp.getField(stamp.findFieldByNumber(2));
      try {
        return Instant.ofEpochSecond(seconds, nanos).truncatedTo(ChronoUnit.MILLIS);
      } catch (DateTimeException e) {
        // Nothing in the wire format bounds the seconds; Instant is bounded to years of ±1e9.
        throw new InvalidReadingException(
            Reason.NOT_A_TIME,
            what + ": the time field " + time.path + " holds " + seconds + " s, beyond any time");
      }
    }
    final long millis = (Long) value;
    if (time.unsigned && millis < 0) {
      throw new InvalidReadingException(
          Reason.NOT_A_TIME,
          what + ": the time field " + time.path + " holds " + Long.toUnsignedString(millis));
    }
    return Instant.ofEpochMilli(millis);
  }

  private static String metric(final Object value) {
    if (value instanceof EnumValueDescriptor constant) {
      return constant.getName();
    }
    return value == null || "".equals(value) ? null : (String) value;
  }

  private static double number(final Located field, final Object value) {
    if (field.unsigned && value instanceof Long large && large < 0) {
      return new BigInteger(Long.toUnsignedString(large)).doubleValue();
    }
    if (field.unsigned && value instanceof Integer small) {
      return Integer.toUnsignedLong(small);
    }
    return ((Number) value).doubleValue();
  }

  /** The message holding the last field of {@code path}; null when one on the way is not set. */
  private static Message parentOf(final Message root, final FieldDescriptor[] path) {
    Message message = root;
    for (int i = 0; i < path.length - 1; i++) {
      if (!message.hasField(path[i])) {
        return null;
      }
      message = (Message) message.getField(path[i]);
    }
    return message;
  }

  private static String dotted(final FieldDescriptor[] path) {
    return String.join(".", Arrays.stream(path).map(FieldDescriptor::getName).toList());
  }

  private static Set<Type> numbers() {
    final Set<Type> numbers = EnumSet.copyOf(INTEGERS);
    numbers.add(Type.DOUBLE);
    numbers.add(Type.FLOAT);
    return numbers;
  }

  /**
   * A mapped field, located: the fields from the message (or from an element of the repeated field,
   * when {@code inElement}) down to it, and whether it is a wrapper that stands for its value.
   */
  private static final class Located {
    private final FieldPath path;
    private final FieldDescriptor[] fields;
    private final boolean inElement;
    private final FieldDescriptor wrapped;
    private final Type scalar;
    private final boolean unsigned;

    Located(
        final FieldPath path,
        final FieldDescriptor[] fields,
        final boolean inElement,
        final Type scalar) {
      this.path = path;
      this.fields = fields;
      this.inElement = inElement;
      final FieldDescriptor last = fields[fields.length - 1];
      this.wrapped =
          last.getJavaType() == JavaType.MESSAGE
                  && WRAPPERS.containsKey(last.getMessageType().getFullName())
              ? last.getMessageType().findFieldByNumber(1)
              : null;
      this.scalar = scalar;
      this.unsigned = UNSIGNED_32.contains(scalar) || UNSIGNED_64.contains(scalar);
    }

    /** The field's value; null when it, or a message on its way, is not set. */
    Object read(final Message message, final Message element) {
      Message at = inElement ? element : message;
      for (int i = 0; i < fields.length - 1; i++) {
        if (!at.hasField(fields[i])) {
          return null;
        }
        at = (Message) at.getField(fields[i]);
      }
      final FieldDescriptor last = fields[fields.length - 1];
      if (last.hasPresence() && !at.hasField(last)) {
        return null;
      }
      final Object value = at.getField(last);
      return wrapped == null ? value : ((Message) value).getField(wrapped);
    }
  }

  /** Locates and checks the mapped fields in one message type. */
  private static final class Compiler {
    private final String what;
    private final Descriptor type;
    private final SensorIdSource sensorIdSource;
    private final Located sensorId;
    private final Located time;
    private final Located metric;
    private final Located utcOffset;
    private final boolean metricField;
    private final List<Located> values = new ArrayList<>();
    private final List<String> valueMetrics = new ArrayList<>();
    private FieldDescriptor[] repeated;
    private FieldPath repeatedBy;

    Compiler(final String what, final Descriptor type, final ReadingMapping mapping)
        throws InvalidReadingException {
      this.what = what;
      this.type = type;
      this.sensorIdSource = mapping.sensorIdSource();
      this.sensorId = sensorIdSource.inPayload() ? required("sensor id", mapping.sensorId()) : null;
      if (sensorId != null) {
        check(
            sensorId, "sensor id", "a string or an integer", Reason.WRONG_TYPE, true, true, false);
      }
      this.time = required("time", mapping.time());
      checkTime();
      this.metricField = mapping.metric().isPresent();
      this.metric = metricField ? locate(mapping.metric().get()) : null;
      if (metric != null && !isEnum(metric)) {
        check(metric, "metric", "a string or an enum", Reason.WRONG_TYPE, false, true, false);
      }
      this.utcOffset = mapping.utcOffset().isPresent() ? locate(mapping.utcOffset().get()) : null;
      if (utcOffset != null && !INTS.contains(utcOffset.scalar)) {
        throw wrong(utcOffset, "UTC offset", "a 32-bit integer of minutes", Reason.WRONG_TYPE);
      }
      if (mapping.allNumericValues()) {
        numericFields(mapping);
      }
      for (final FieldPath value : mapping.values()) {
        final Located located = locate(value);
        if (located != null) {
          check(located, "value", "a number", Reason.NOT_A_NUMBER, false, false, true);
          values.add(located);
          valueMetrics.add(value.name());
        }
      }
      if (values.isEmpty()) {
        throw new InvalidReadingException(
            Reason.NO_VALUES,
            what
                + (mapping.allNumericValues()
                    ? " has no numeric field besides the ones mapped to other roles"
                    : " has none of the value fields " + mapping.values()));
      }
    }

    /**
     * input.value.fields=*: the message's top-level numbers, in the order the .proto declares them,
     * but those mapped to another role. Repeated fields, booleans, strings, enums and other
     * messages than the numeric wrappers are no values.
     */
    private void numericFields(final ReadingMapping mapping) {
      for (final FieldDescriptor field : type.getFields()) {
        final Type scalar = scalarOf(field);
        if (!field.isRepeated()
            && scalar != null
            && NUMBERS.contains(scalar)
            && !mapping.isOtherRole(field.getName())) {
          values.add(
              new Located(
                  new FieldPath(List.of(field.getName())),
                  new FieldDescriptor[] {field},
                  false,
                  scalar));
          valueMetrics.add(field.getName());
        }
      }
    }

    private Located required(final String role, final FieldPath path)
        throws InvalidReadingException {
      final Located located = locate(path);
      if (located == null) {
        throw new InvalidReadingException(
            Reason.MISSING_FIELD, what + " has no " + role + " field " + path);
      }
      return located;
    }

    /**
     * The fields along {@code path}; null when a segment names no field of its message. Notes the
     * repeated message field it crosses, if any.
     */
    private Located locate(final FieldPath path) throws InvalidReadingException {
      final List<FieldDescriptor> chain = new ArrayList<>();
      Descriptor message = type;
      int repeatedAt = -1;
      for (final String segment : path.segments()) {
        final FieldDescriptor field = message == null ? null : message.findFieldByName(segment);
        if (field == null) {
          return null;
        }
        chain.add(field);
        final boolean last = chain.size() == path.segments().size();
        if (field.isRepeated()) {
          if (last || repeatedAt >= 0) {
            throw new InvalidReadingException(
                Reason.REPEATED_FIELD,
                what
                    + ": the mapped field "
                    + path
                    + (last
                        ? " is repeated; a reading takes one value"
                        : " crosses two repeated fields; a path may cross one"));
          }
          repeatedAt = chain.size() - 1;
        }
        message = field.getJavaType() == JavaType.MESSAGE ? field.getMessageType() : null;
      }
      final FieldDescriptor[] fields = chain.toArray(FieldDescriptor[]::new);
      if (repeatedAt < 0) {
        return new Located(path, fields, false, scalarOf(fields[fields.length - 1]));
      }
      final FieldDescriptor[] toList = Arrays.copyOf(fields, repeatedAt + 1);
      if (repeated == null) {
        repeated = toList;
        repeatedBy = path;
      } else if (!Arrays.equals(repeated, toList)) {
        throw new InvalidReadingException(
            Reason.REPEATED_FIELD,
            what
                + ": the mapped fields "
                + repeatedBy
                + " and "
                + path
                + " cross different repeated fields; the paths may cross one");
      }
      return new Located(
          path,
          Arrays.copyOfRange(fields, repeatedAt + 1, fields.length),
          true,
          scalarOf(fields[fields.length - 1]));
    }

    private void checkTime() throws InvalidReadingException {
      final FieldDescriptor last = time.fields[time.fields.length - 1];
      final boolean timestamp =
          last.getJavaType() == JavaType.MESSAGE
              && TIMESTAMP.equals(last.getMessageType().getFullName());
      if (!timestamp && !LONGS.contains(time.scalar)) {
        throw wrong(
            time,
            "time",
            "a google.protobuf.Timestamp or a 64-bit integer of epoch milliseconds",
            Reason.NOT_A_TIME);
      }
    }

    private void check(
        final Located located,
        final String role,
        final String expected,
        final Reason reason,
        final boolean integers,
        final boolean strings,
        final boolean numbers)
        throws InvalidReadingException {
      final Type scalar = located.scalar;
      final boolean fits =
          integers && INTEGERS.contains(scalar)
              || strings && scalar == Type.STRING
              || numbers && NUMBERS.contains(scalar);
      if (!fits) {
        throw wrong(located, role, expected, reason);
      }
    }

    private InvalidReadingException wrong(
        final Located located, final String role, final String expected, final Reason reason) {
      final FieldDescriptor last = located.fields[located.fields.length - 1];
      return new InvalidReadingException(
          reason,
          what
              + ": the "
              + role
              + " field "
              + located.path
              + " is "
              + (last.getJavaType() == JavaType.MESSAGE
                  ? last.getMessageType().getFullName()
                  : last.getType().name().toLowerCase(Locale.ROOT))
              + ", expected "
              + expected);
    }

    private static boolean isEnum(final Located located) {
      return located.fields[located.fields.length - 1].getJavaType() == JavaType.ENUM;
    }
  }

  /** The scalar type a field holds, seeing through a wrapper type; null for another message. */
  private static Type scalarOf(final FieldDescriptor field) {
    if (field.getJavaType() != JavaType.MESSAGE) {
      return field.getType();
    }
    return WRAPPERS.get(field.getMessageType().getFullName());
  }
}
