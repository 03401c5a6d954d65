package io.bucketer.ingest.protobuf;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The index array as Confluent writes it, and each message's indexes in the test schema. */
class MessageIndexesTest {

  @Test
  void shouldWriteTheFirstMessageAsOneZeroByteAndOthersAsZigzagCountAndIndexes() throws Exception {
    assertThat(written(0)).containsExactly(0);
    assertThat(written(1)).containsExactly(2, 2);
    assertThat(written(0, 1)).containsExactly(4, 0, 2);
    assertThat(written(70)).as("a varint of two bytes").containsExactly(2, 0x8c, 0x01);
  }

  @Test
  void shouldReadWhatItWrites() throws Exception {
    for (final int[] indexes : new int[][] {{0}, {2}, {0, 1}, {3, 0, 70}}) {
      final byte[] bytes = toBytes(written(indexes));
      assertThat(MessageIndexes.read(CodedInputStream.newInstance(bytes), bytes.length, 1))
          .containsExactly(indexes);
    }
  }

  @Test
  void shouldNumberTheDeclaredMessagesNotTheMapEntries() {
    assertThat(MessageIndexes.of(TestSchemas.GATEWAY_READING)).containsExactly(0);
    assertThat(MessageIndexes.of(TestSchemas.STATUS)).containsExactly(0, 1);
    assertThat(MessageIndexes.of(TestSchemas.MEASUREMENT)).containsExactly(1);
    // Batch declares a map before Sample: its entry type is not counted.
    assertThat(MessageIndexes.of(TestSchemas.SAMPLE)).containsExactly(2, 0);
  }

  private static int[] written(final int... indexes) throws IOException {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    MessageIndexes.write(out, indexes);
    out.flush();
    final byte[] array = bytes.toByteArray();
    final int[] unsigned = new int[array.length];
    for (int i = 0; i < array.length; i++) {
      unsigned[i] = array[i] & 0xff;
    }
    return unsigned;
  }

  private static byte[] toBytes(final int[] unsigned) {
    final byte[] bytes = new byte[unsigned.length];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) unsigned[i];
    }
    return bytes;
  }
}
