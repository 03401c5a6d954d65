package io.bucketer.config;

import io.bucketer.security.ClientTls;
import io.bucketer.security.SecurityMaterialException;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The files a client's TLS is made of, read the same way for every dependency that has them ({@code
 * mongodb.tls.*}, {@code schema.registry.tls.*}): {@code <prefix>.ca.file}, {@code
 * <prefix>.cert.file} with {@code <prefix>.key.file}, and {@code <prefix>.key.password}.
 */
final class ClientTlsFiles {

  private ClientTlsFiles() {}

  /**
   * The client TLS the settings under {@code prefix} describe, read once now so that a wrong file
   * stops the start with its name, before any connection; empty when none is set.
   *
   * @throws ConfigException when a certificate lacks its key, or a file cannot be used
   */
  static Optional<ClientTls> read(final AbstractConfig values, final String prefix) {
    final Optional<Path> ca = path(values, prefix + ".ca.file");
    final Optional<Path> certificate = path(values, prefix + ".cert.file");
    final Optional<Path> key = path(values, prefix + ".key.file");
    if (certificate.isPresent() != key.isPresent()) {
      throw new ConfigException(
          prefix
              + (certificate.isPresent() ? ".key.file" : ".cert.file")
              + " must be set too: a client certificate needs its key");
    }
    if (ca.isEmpty() && certificate.isEmpty()) {
      return Optional.empty();
    }
    final Password keyPassword = values.getPassword(prefix + ".key.password");
    final ClientTls tls =
        new ClientTls(
            ca.orElse(null),
            certificate.orElse(null),
            key.orElse(null),
            keyPassword == null ? null : keyPassword.value().toCharArray());
    try {
      tls.context();
    } catch (SecurityMaterialException e) {
      throw new ConfigException(prefix + ".*: " + e.getMessage());
    }
    return Optional.of(tls);
  }

  /** A file setting's path; empty when the setting is blank. */
  static Optional<Path> path(final AbstractConfig values, final String name) {
    final String path = values.getString(name);
    return path.isBlank() ? Optional.empty() : Optional.of(Path.of(path));
  }
}
