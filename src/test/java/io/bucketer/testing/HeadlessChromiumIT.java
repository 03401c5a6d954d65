package io.bucketer.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

// A hung run fails here, after five minutes, instead of holding CI until its limit.
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HeadlessChromiumIT {

  private static final CountDownLatch RELEASE = new CountDownLatch(1);
  private static ExecutorService threads;
  private static HttpServer server;

  @BeforeAll
  static void serve() throws IOException {
    if (!HeadlessChromium.available()) {
      return;
    }
    threads = Executors.newCachedThreadPool();
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(threads);
    server.createContext(
        "/page",
        exchange -> {
          final byte[] page =
              "<!doctype html><p id=\"text\">served</p>".getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
          exchange.sendResponseHeaders(200, page.length);
          exchange.getResponseBody().write(page);
          exchange.close();
        });
    server.createContext(
        "/never",
        exchange -> {
          try {
            RELEASE.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          exchange.close();
        });
    server.start();
  }

  @BeforeEach
  void requireChromium() {
    HeadlessChromium.assumeAvailable();
  }

  @AfterAll
  static void stop() {
    RELEASE.countDown();
    if (server != null) {
      server.stop(0);
      threads.shutdownNow();
    }
  }

  @Test
  void shouldDumpThePagesDom() {
    assertThat(new HeadlessChromium().dumpDom(url("/page"))).contains("<p id=\"text\">served</p>");
  }

  @Test
  void shouldKillABrowserThatOutlivesItsDeadline() {
    final URI never = url("/never");
    final long started = System.nanoTime();

    assertThatThrownBy(() -> new HeadlessChromium(Duration.ofSeconds(5)).dumpDom(never))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("did not finish " + never + " within 5 s and was killed");

    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
    assertThat(
            ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().orElse("").contains(never.toString())))
        .as("browser processes still running for " + never)
        .isEmpty();
  }

  private static URI url(final String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }
}
