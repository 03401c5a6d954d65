package io.bucketer.deadletters;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Bytes shown on one bounded line: as text when they are printable UTF-8 (JSON, a sensor id), else
 * as hex; the first {@code limit} characters or bytes, with the full length when cut. Line breaks
 * and other control characters are escaped, so one record's bytes never break the output's lines.
 */
public final class BytesPreview {

  private static final HexFormat HEX = HexFormat.ofDelimiter(" ");

  private BytesPreview() {}

  public static String of(final byte[] bytes, final int limit) {
    if (bytes == null) {
      return "null";
    }
    if (bytes.length == 0) {
      return "empty";
    }
    final Optional<String> text = printableUtf8(bytes);
    if (text.isPresent()) {
      return text(text.get(), limit, bytes.length);
    }
    final int shown = Math.min(bytes.length, limit);
    return "hex "
        + HEX.formatHex(bytes, 0, shown)
        + (shown < bytes.length ? " … (" + bytes.length + " bytes)" : "");
  }

  /** {@code text} cut to {@code limit} characters, control characters escaped. */
  public static String text(final String text, final int limit, final int bytes) {
    final boolean cut = text.length() > limit;
    final String shown = escapeControls(cut ? text.substring(0, limit) : text);
    return cut ? shown + " … (" + bytes + " bytes)" : shown;
  }

  /** The text, when the bytes are valid UTF-8 with no control character but tab and line breaks. */
  static Optional<String> printableUtf8(final byte[] bytes) {
    final CharBuffer chars;
    try {
      chars =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes));
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
    final String text = chars.toString();
    final boolean printable =
        text.chars()
            .allMatch(c -> c == '\t' || c == '\n' || c == '\r' || !Character.isISOControl(c));
    return printable ? Optional.of(text) : Optional.empty();
  }

  private static String escapeControls(final String text) {
    final StringBuilder escaped = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      final char c = text.charAt(i);
      switch (c) {
        case '\n' -> escaped.append("\\n");
        case '\r' -> escaped.append("\\r");
        case '\t' -> escaped.append("\\t");
        default -> {
          if (Character.isISOControl(c)) {
            escaped.append(String.format("\\u%04x", (int) c));
          } else {
            escaped.append(c);
          }
        }
      }
    }
    return escaped.toString();
  }
}
