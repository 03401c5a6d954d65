package io.bucketer.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Another host for a test: a network namespace of its own, joined to this one by a veth pair with
 * addresses chosen here, from which {@code curl} calls a server of the test. Requests never go to
 * this machine's own addresses, only to the veth address the test's server listens on. Needs root
 * (CAP_NET_ADMIN) and iproute2; without them the test is skipped, saying why.
 */
public final class AnotherHost implements AutoCloseable {

  private final String namespace;
  private final String hostSide;
  private final String hereAddress;

  private AnotherHost(final String namespace, final String hostSide, final String hereAddress) {
    this.namespace = namespace;
    this.hostSide = hostSide;
    this.hereAddress = hereAddress;
  }

  /** Makes the namespace and its link, or skips the test when the machine does not allow it. */
  public static AnotherHost create() {
    final int id = new Random().nextInt(60_000);
    final String namespace = "bkt-" + id;
    final String hostSide = "bkh" + id;
    final String nsSide = "bkn" + id;
    // A /30 of 10.213.0.0/16 picked from the id: one of 16,384, so that runs do not collide.
    final int subnet = (id % 16_384) * 4;
    final String here = "10.213." + (subnet / 256) + "." + (subnet % 256 + 1);
    final String there = "10.213." + (subnet / 256) + "." + (subnet % 256 + 2);
    final AnotherHost host = new AnotherHost(namespace, hostSide, here);
    try {
      run("ip", "netns", "add", namespace);
    } catch (IllegalStateException e) {
      Assumptions.abort("skipped: cannot make a network namespace here (" + e.getMessage() + ")");
    }
    try {
      run("ip", "link", "add", hostSide, "type", "veth", "peer", "name", nsSide);
      run("ip", "link", "set", nsSide, "netns", namespace);
      run("ip", "addr", "add", here + "/30", "dev", hostSide);
      run("ip", "link", "set", hostSide, "up");
      run("ip", "netns", "exec", namespace, "ip", "addr", "add", there + "/30", "dev", nsSide);
      run("ip", "netns", "exec", namespace, "ip", "link", "set", nsSide, "up");
      return host;
    } catch (IllegalStateException e) {
      host.close();
      throw e;
    }
  }

  /** This host's address as the other one reaches it: where the test's server must listen. */
  public String hereAddress() {
    return hereAddress;
  }

  /** A GET from the other host; returns the status code and the body. */
  public Answer get(final String url, final String... headers) {
    final List<String> command =
        new ArrayList<>(
            List.of(
                "ip",
                "netns",
                "exec",
                namespace,
                "curl",
                "-s",
                "--max-time",
                "10",
                "-w",
                "\n%{http_code}"));
    for (final String header : headers) {
      command.add("-H");
      command.add(header);
    }
    command.add(url);
    final String output = run(command.toArray(new String[0]));
    final int lastLine = output.lastIndexOf('\n');
    return new Answer(
        Integer.parseInt(output.substring(lastLine + 1).strip()), output.substring(0, lastLine));
  }

  /** What the other host got. */
  public record Answer(int status, String body) {}

  @Override
  public void close() {
    runQuietly("ip", "link", "del", hostSide);
    runQuietly("ip", "netns", "del", namespace);
  }

  private static void runQuietly(final String... command) {
    try {
      run(command);
    } catch (IllegalStateException e) {
      // already gone
    }
  }

  private static String run(final String... command) {
    try {
      final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      final String output =
          new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not end in 30 s");
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + ": " + output.strip());
      }
      return output;
    } catch (IOException e) {
      throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
