package io.bucketer.ingest.sparkplug;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The committed descriptor set ({@link SparkplugSchema#RESOURCE}) must describe {@code
 * schemas/sparkplug_b.proto}: every message, field (name, number, type, repeated or not) and enum
 * value of the one is in the other. The schema is read with a few patterns, enough for its plain
 * layout; a change of either without regenerating the descriptor set fails here.
 */
class SparkplugSchemaTest {

  private static final Path SCHEMA = Path.of("schemas", "sparkplug_b.proto");

  private static final Pattern OPEN = Pattern.compile("(message|enum|oneof)\\s+(\\w+)\\s*\\{");
  private static final Pattern FIELD =
      Pattern.compile(
          "(?:(optional|repeated|required)\\s+)?([\\w.]+)\\s+(\\w+)\\s*=\\s*(\\d+)\\s*;");
  private static final Pattern ENUM_VALUE = Pattern.compile("(\\w+)\\s*=\\s*(\\d+)\\s*;");

  @Test
  void shouldDescribeTheSchemaFieldForField() throws IOException {
    assertThat(fromDescriptorSet()).isEqualTo(fromSchema()).hasSizeGreaterThan(100);
  }

  @Test
  void shouldHoldTheFieldsTheDecoderReadsUnderTheSpecificationsNumbers() throws IOException {
    assertThat(fromSchema())
        .contains(
            "Payload.timestamp=1 uint64",
            "Payload.metrics=2 repeated Metric",
            "Payload.seq=3 uint64",
            "Payload.Metric.name=1 string",
            "Payload.Metric.alias=2 uint64",
            "Payload.Metric.timestamp=3 uint64",
            "Payload.Metric.datatype=4 uint32",
            "Payload.Metric.is_historical=5 bool",
            "Payload.Metric.is_null=7 bool",
            "Payload.Metric.int_value=10 uint32",
            "Payload.Metric.long_value=11 uint64",
            "Payload.Metric.float_value=12 float",
            "Payload.Metric.double_value=13 double",
            "Payload.Metric.boolean_value=14 bool",
            "Payload.Metric.string_value=15 string",
            "DataType.Int8=1",
            "DataType.UInt64=8",
            "DataType.Boolean=11",
            "DataType.DateTimeArray=34");
  }

  /** One line per field and enum value: {@code Message.Nested.field=number [repeated] type}. */
  private static Set<String> fromSchema() throws IOException {
    final Set<String> entries = new TreeSet<>();
    // The scopes open at each point: a message or enum by its name, a oneof as null (its fields
    // belong to the message around it).
    final Deque<String[]> scopes = new ArrayDeque<>();
    for (final String rawLine : Files.readAllLines(SCHEMA)) {
      final String line = rawLine.replaceAll("//.*", "").strip();
      if (line.isEmpty()) {
        continue;
      }
      final Matcher open = OPEN.matcher(line);
      if (open.lookingAt()) {
        scopes.push(new String[] {open.group(1), open.group(2)});
        continue;
      }
      if (line.equals("}")) {
        scopes.pop();
        continue;
      }
      if (scopes.isEmpty() || line.startsWith("extensions")) {
        continue;
      }
      if (scopes.peek()[0].equals("enum")) {
        final Matcher value = ENUM_VALUE.matcher(line);
        assertThat(value.matches()).as("an enum value: %s", line).isTrue();
        entries.add(scopes.peek()[1] + "." + value.group(1) + "=" + value.group(2));
        continue;
      }
      final Matcher field = FIELD.matcher(line);
      assertThat(field.matches()).as("a field: %s", line).isTrue();
      entries.add(
          messagePath(scopes)
              + "."
              + field.group(3)
              + "="
              + field.group(4)
              + ("repeated".equals(field.group(1)) ? " repeated " : " ")
              + field.group(2));
    }
    return entries;
  }

  private static String messagePath(final Deque<String[]> scopes) {
    final StringBuilder path = new StringBuilder();
    final var outermostFirst = scopes.descendingIterator();
    while (outermostFirst.hasNext()) {
      final String[] scope = outermostFirst.next();
      if (scope[0].equals("message")) {
        path.append(path.isEmpty() ? "" : ".").append(scope[1]);
      }
    }
    return path.toString();
  }

  private static Set<String> fromDescriptorSet() {
    final Set<String> entries = new TreeSet<>();
    for (final EnumDescriptor type : SparkplugSchema.INSTANCE.file().getEnumTypes()) {
      addEnum(type, entries);
    }
    for (final Descriptor message : SparkplugSchema.INSTANCE.file().getMessageTypes()) {
      addMessage(message, message.getName(), entries);
    }
    return entries;
  }

  private static void addMessage(
      final Descriptor message, final String path, final Set<String> entries) {
    for (final FieldDescriptor field : message.getFields()) {
      final String type =
          switch (field.getJavaType()) {
            case MESSAGE -> field.getMessageType().getName();
            case ENUM -> field.getEnumType().getName();
            default -> field.getType().name().toLowerCase(Locale.ROOT);
          };
      entries.add(
          path
              + "."
              + field.getName()
              + "="
              + field.getNumber()
              + (field.isRepeated() ? " repeated " : " ")
              + type);
    }
    for (final EnumDescriptor type : message.getEnumTypes()) {
      addEnum(type, entries);
    }
    for (final Descriptor nested : message.getNestedTypes()) {
      addMessage(nested, path + "." + nested.getName(), entries);
    }
  }

  private static void addEnum(final EnumDescriptor type, final Set<String> entries) {
    for (final EnumValueDescriptor value : type.getValues()) {
      entries.add(type.getName() + "." + value.getName() + "=" + value.getNumber());
    }
  }
}
