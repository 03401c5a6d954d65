package io.bucketer.ingest;

import io.bucketer.avro.Reading;
import io.bucketer.ingest.InvalidReadingException.Reason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumReader;

/**
 * How the records of one writer schema become readings under a {@link ReadingMapping}, compiled
 * once per schema id. Each mapped field is located in the writer schema by its name, or else by a
 * writer field's alias (the name it had before a rename), and its type is checked here, once, so
 * that a schema that can never satisfy the mapping is rejected as a whole. The records are read
 * with Avro's resolving reader into a projection of the writer schema that holds only the mapped
 * fields: Avro skips the others without building them.
 *
 * <p>How the mapping meets an evolving writer schema:
 *
 * <ul>
 *   <li>a field added: ignored, unless the mapping names it;
 *   <li>a field renamed with the old name as an alias: found through the alias;
 *   <li>a value field removed: skipped, like a null value (a schema left with no value field at all
 *       is rejected, {@code no-values});
 *   <li>the sensor id or the time field removed: every record of that schema is rejected ({@code
 *       missing-field}), as is a mapped field whose new type the mapping cannot read.
 * </ul>
 */
final class WriterSchemaPlan {

  private static final Set<Schema.Type> NUMBERS =
      Set.of(Schema.Type.INT, Schema.Type.LONG, Schema.Type.FLOAT, Schema.Type.DOUBLE);
  private static final Set<Schema.Type> SENSOR_IDS =
      Set.of(Schema.Type.STRING, Schema.Type.INT, Schema.Type.LONG);

  private final ReadingMapping mapping;
  private final DatumReader<GenericRecord> reader;
  private final int[] sensorId;
  private final int[] time;
  private final long timeUnitsPerMilli;
  private final int[] metric;
  private final int[] utcOffset;
  // The mapping's value fields, or with input.value.fields=* the writer schema's numeric ones.
  private final List<FieldPath> valueFields;
  // By position in valueFields; null for one the writer schema does not have.
  private final int[][] values;

  private WriterSchemaPlan(final Compiler compiled, final ReadingMapping mapping) {
    this.mapping = mapping;
    final Schema projection = compiled.projection(); // numbers the positions read below
    this.reader = new GenericDatumReader<>(compiled.writer, projection, GenericData.get());
    this.sensorId = compiled.positions(compiled.sensorId);
    this.time = compiled.positions(compiled.time);
    this.timeUnitsPerMilli = compiled.timeUnitsPerMilli;
    this.metric = compiled.positions(compiled.metric);
    this.utcOffset = compiled.positions(compiled.utcOffset);
    this.valueFields = compiled.valueFields;
    this.values = new int[compiled.values.size()][];
    for (int i = 0; i < values.length; i++) {
      values[i] = compiled.positions(compiled.values.get(i));
    }
  }

  /**
   * @throws InvalidReadingException when no record of {@code writer} can satisfy the mapping; the
   *     message names the field and the schema id
   */
  static WriterSchemaPlan compile(
      final int schemaId, final Schema writer, final ReadingMapping mapping)
      throws InvalidReadingException {
    if (writer.getType() != Schema.Type.RECORD) {
      throw new InvalidReadingException(
          Reason.INCOMPATIBLE_SCHEMA,
          "writer schema id " + schemaId + " is a " + writer.getType() + ", not a record");
    }
    return new WriterSchemaPlan(new Compiler(schemaId, writer, mapping), mapping);
  }

  DatumReader<GenericRecord> reader() {
    return reader;
  }

  /**
   * The readings of one record read with {@link #reader()}, from {@code input} (for a sensor id
   * outside the payload).
   */
  List<Reading> readings(final GenericRecord record, final InputRecord input)
      throws InvalidReadingException {
    final Object id =
        mapping.sensorIdSource().inPayload()
            ? valueAt(record, sensorId)
            : mapping.sensorIdSource().outside(input);
    if (id == null) {
      throw new InvalidReadingException(
          Reason.MISSING_FIELD, "the sensor id field " + mapping.sensorId() + " is null");
    }
    final Object timeValue = valueAt(record, time);
    if (timeValue == null) {
      throw new InvalidReadingException(
          Reason.MISSING_FIELD, "the time field " + mapping.time() + " is null");
    }
    final Object metricValue = valueAt(record, metric);
    final Double[] found = new Double[values.length];
    for (int i = 0; i < values.length; i++) {
      final Object value = valueAt(record, values[i]);
      found[i] = value == null ? null : ((Number) value).doubleValue();
    }
    return mapping.readings(
        id.toString(), // a Utf8, Integer or Long
        Instant.ofEpochMilli(Math.floorDiv((Long) timeValue, timeUnitsPerMilli)),
        metricValue == null ? null : metricValue.toString(),
        (Integer) valueAt(record, utcOffset),
        valueFields,
        found);
  }

  /** Null when the field is not in the schema, is null, or sits in a nested record that is. */
  private static Object valueAt(final GenericRecord record, final int[] positions) {
    if (positions == null) {
      return null;
    }
    Object value = record;
    for (final int position : positions) {
      if (value == null) {
        return null;
      }
      value = ((GenericRecord) value).get(position);
    }
    return value;
  }

  /** Locates and checks the mapped fields in one writer schema, and builds the projection. */
  private static final class Compiler {
    private final int schemaId;
    private final Schema writer;
    private final Node root = new Node(null);
    private final List<Schema.Field> sensorId;
    private final List<Schema.Field> time;
    private final long timeUnitsPerMilli;
    private final List<Schema.Field> metric;
    private final List<Schema.Field> utcOffset;
    private final List<FieldPath> valueFields;
    private final List<List<Schema.Field>> values = new ArrayList<>();

    Compiler(final int schemaId, final Schema writer, final ReadingMapping mapping)
        throws InvalidReadingException {
      this.schemaId = schemaId;
      this.writer = writer;
      this.sensorId =
          mapping.sensorIdSource().inPayload() ? required("sensor id", mapping.sensorId()) : null;
      // Any logical type: a uuid string is as good an id as any.
      check(sensorId, "sensor id", mapping.sensorId(), SENSOR_IDS, Reason.WRONG_TYPE, true);
      this.time = required("time", mapping.time());
      this.timeUnitsPerMilli = timeUnitsPerMilli(mapping.time());
      this.metric = mapping.metric().isEmpty() ? null : locate(mapping.metric().get());
      check(
          metric,
          "metric",
          mapping.metric().orElse(null),
          Set.of(Schema.Type.STRING),
          Reason.WRONG_TYPE,
          true);
      this.utcOffset = mapping.utcOffset().isEmpty() ? null : locate(mapping.utcOffset().get());
      check(
          utcOffset,
          "UTC offset",
          mapping.utcOffset().orElse(null),
          Set.of(Schema.Type.INT),
          Reason.WRONG_TYPE,
          false);
      this.valueFields = mapping.allNumericValues() ? numericFields() : mapping.values();
      boolean anyValue = false;
      for (final FieldPath value : valueFields) {
        final List<Schema.Field> located = locate(value);
        // No logical type: a date's days or a time's millis are not measurements.
        check(located, "value", value, NUMBERS, Reason.NOT_A_NUMBER, false);
        values.add(located);
        anyValue |= located != null;
      }
      if (!anyValue) {
        throw new InvalidReadingException(
            Reason.NO_VALUES,
            "writer schema id "
                + schemaId
                + (mapping.allNumericValues()
                    ? " has no numeric field besides the ones mapped to other roles"
                    : " has none of the value fields " + mapping.values()));
      }
    }

    /**
     * input.value.fields=*: the writer schema's top-level fields of a number (or a union of one
     * with null), in its order, without a logical type (a date's days are no measurement), but
     * those mapped to another role, found by name or alias.
     */
    private List<FieldPath> numericFields() {
      final Set<Schema.Field> otherRoles = new HashSet<>();
      for (final List<Schema.Field> located : Arrays.asList(sensorId, time, utcOffset)) {
        if (located != null) {
          otherRoles.add(located.get(0));
        }
      }
      final List<FieldPath> fields = new ArrayList<>();
      for (final Schema.Field field : writer.getFields()) {
        final List<Schema> branches = nonNullBranches(field.schema());
        final boolean numeric =
            !branches.isEmpty()
                && branches.stream()
                    .allMatch(b -> NUMBERS.contains(b.getType()) && b.getLogicalType() == null);
        if (numeric && !otherRoles.contains(field)) {
          fields.add(new FieldPath(List.of(field.name())));
        }
      }
      return fields;
    }

    private List<Schema.Field> required(final String role, final FieldPath path)
        throws InvalidReadingException {
      final List<Schema.Field> located = locate(path);
      if (located == null) {
        throw new InvalidReadingException(
            Reason.MISSING_FIELD,
            "writer schema id "
                + schemaId
                + " has no "
                + role
                + " field "
                + path
                + " (by that name or alias)");
      }
      return located;
    }

    /**
     * The writer's fields along {@code path}, from the outermost; null when a segment names no
     * field of its record (by name or alias) or the field before it is not a record.
     */
    private List<Schema.Field> locate(final FieldPath path) {
      final List<Schema.Field> chain = new ArrayList<>();
      Schema record = writer;
      for (final String segment : path.segments()) {
        final Schema.Field field = record == null ? null : fieldNamed(record, segment);
        if (field == null) {
          return null;
        }
        chain.add(field);
        record = recordIn(field.schema());
      }
      Node node = root;
      for (final Schema.Field field : chain) {
        node = node.children.computeIfAbsent(field.name(), name -> new Node(field));
      }
      return chain;
    }

    private static Schema.Field fieldNamed(final Schema record, final String name) {
      final Schema.Field field = record.getField(name);
      if (field != null) {
        return field;
      }
      for (final Schema.Field candidate : record.getFields()) {
        if (candidate.aliases().contains(name)) {
          return candidate;
        }
      }
      return null;
    }

    /** A record, or an optional one ({@code ["null", record]}); else null. */
    private static Schema recordIn(final Schema schema) {
      if (schema.getType() == Schema.Type.RECORD) {
        return schema;
      }
      final List<Schema> branches = nonNullBranches(schema);
      return branches.size() == 1 && branches.get(0).getType() == Schema.Type.RECORD
          ? branches.get(0)
          : null;
    }

    private static List<Schema> nonNullBranches(final Schema schema) {
      if (schema.getType() != Schema.Type.UNION) {
        return List.of(schema);
      }
      return schema.getTypes().stream().filter(b -> b.getType() != Schema.Type.NULL).toList();
    }

    /** A located field must be of one of {@code types}, or a union of them and null. */
    private void check(
        final List<Schema.Field> located,
        final String role,
        final FieldPath path,
        final Set<Schema.Type> types,
        final Reason reason,
        final boolean logicalTypes)
        throws InvalidReadingException {
      if (located == null) {
        return;
      }
      final Schema schema = located.get(located.size() - 1).schema();
      final List<Schema> branches = nonNullBranches(schema);
      if (branches.isEmpty()
          || !branches.stream().allMatch(b -> types.contains(b.getType()))
          || !logicalTypes && branches.stream().anyMatch(b -> b.getLogicalType() != null)) {
        throw new InvalidReadingException(
            reason,
            "writer schema id "
                + schemaId
                + ": the "
                + role
                + " field "
                + path
                + " is "
                + schema
                + ", expected one of "
                + types
                + " (or a union of them and null)");
      }
    }

    /**
     * Avro resolves logical types by their underlying long, so the unit is taken from the writer
     * schema: a timestamp-micros read as milliseconds would be a thousand times off.
     */
    private long timeUnitsPerMilli(final FieldPath path) throws InvalidReadingException {
      final Schema schema = time.get(time.size() - 1).schema();
      final List<Schema> branches = nonNullBranches(schema);
      if (branches.size() == 1 && branches.get(0).getType() == Schema.Type.LONG) {
        final LogicalType unit = branches.get(0).getLogicalType();
        if (unit == null || unit instanceof LogicalTypes.TimestampMillis) {
          return 1;
        }
        if (unit instanceof LogicalTypes.TimestampMicros) {
          return 1_000;
        }
        if (unit instanceof LogicalTypes.TimestampNanos) {
          return 1_000_000;
        }
      }
      throw new InvalidReadingException(
          Reason.NOT_A_TIME,
          "writer schema id "
              + schemaId
              + ": the time field "
              + path
              + " is "
              + schema
              + ", expected a long of timestamp-millis, timestamp-micros or plain epoch"
              + " milliseconds");
    }

    /** The projection: the writer schema with only the located fields, as the writer has them. */
    Schema projection() {
      return project(writer, root);
    }

    private static Schema project(final Schema schema, final Node node) {
      if (node.children.isEmpty()) {
        return schema; // a mapped field: read as written
      }
      if (schema.getType() == Schema.Type.UNION) {
        final List<Schema> branches = new ArrayList<>();
        for (final Schema branch : schema.getTypes()) {
          branches.add(branch.getType() == Schema.Type.RECORD ? project(branch, node) : branch);
        }
        return Schema.createUnion(branches);
      }
      final List<Schema.Field> fields = new ArrayList<>();
      for (final Node child : node.children.values()) {
        child.position = fields.size();
        fields.add(
            new Schema.Field(
                child.field.name(), project(child.field.schema(), child), null, (Object) null));
      }
      // The writer's own name: resolution matches records by name.
      return Schema.createRecord(schema.getName(), null, schema.getNamespace(), false, fields);
    }

    /** Positions in the projection along a located chain; call after {@link #projection()}. */
    int[] positions(final List<Schema.Field> chain) {
      if (chain == null) {
        return null;
      }
      final int[] positions = new int[chain.size()];
      Node node = root;
      for (int i = 0; i < positions.length; i++) {
        node = node.children.get(chain.get(i).name());
        positions[i] = node.position;
      }
      return positions;
    }
  }

  /** A field of the projection, with the mapped fields under it. */
  private static final class Node {
    private final Schema.Field field;
    private final Map<String, Node> children = new LinkedHashMap<>();
    private int position;

    Node(final Schema.Field field) {
      this.field = field;
    }
  }
}
