package io.bucketer.ingest;

import io.bucketer.avro.Reading;
import java.time.Instant;

/** Avro bodies written out byte by byte from the spec, independent of Avro's own encoder. */
final class HandEncoded {

  /** {@code Reading("s1", 300 ms, 1.5, "t", -60)}. */
  static final Reading FULL_READING = new Reading("s1", Instant.ofEpochMilli(300), 1.5, "t", -60);

  static final byte[] FULL_BODY = {
    0x04,
    's',
    '1', // sensor_id: zig-zag length 2 -> 0x04, then UTF-8
    (byte) 0xD8,
    0x04, // timestamp 300: zig-zag 600 = 0b100_1011000 -> 0x58|0x80, 0x04
    0,
    0,
    0,
    0,
    0,
    0,
    (byte) 0xF8,
    0x3F, // value 1.5 = 0x3FF8000000000000, little-endian
    0x02,
    0x02,
    't', // metric: union branch 1 (string) -> 0x02, length 1 -> 0x02, 't'
    0x02,
    0x77 // utc_offset_minutes: union branch 1 (int), -60 zig-zags to 119 = 0x77
  };

  /** {@code Reading("s1", 1 ms, -2.0, null, null)}. */
  static final Reading NULLS_READING = new Reading("s1", Instant.ofEpochMilli(1), -2.0, null, null);

  static final byte[] NULLS_BODY = {
    0x04,
    's',
    '1', // sensor_id
    0x02, // timestamp 1 -> zig-zag 2
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    (byte) 0xC0, // -2.0 = 0xC000000000000000, little-endian
    0x00, // metric: union branch 0 (null), no payload
    0x00 // utc_offset_minutes: null
  };

  private HandEncoded() {}

  /** Header for schema id 42 (0x0000002A) followed by {@code body}. */
  static byte[] framedAs42(final byte[] body) {
    final byte[] framed = new byte[5 + body.length];
    framed[0] = 0; // magic
    framed[1] = 0;
    framed[2] = 0;
    framed[3] = 0;
    framed[4] = 42;
    System.arraycopy(body, 0, framed, 5, body.length);
    return framed;
  }
}
