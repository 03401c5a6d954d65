package io.bucketer.bench;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JcmdTest {

  @Test
  void shouldRunACommandInAJvm() {
    assertThatCode(() -> Jcmd.run(ProcessHandle.current().pid(), "GC.run"))
        .doesNotThrowAnyException();
  }

  @Test
  void shouldSayWhichProcessItFailedOn() throws Exception {
    // a process that has ended: nothing for jcmd to attach to
    final Process ended = new ProcessBuilder("true").start();
    ended.waitFor();

    assertThatThrownBy(() -> Jcmd.run(ended.pid(), "GC.run"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("jcmd GC.run failed on process " + ended.pid());
  }
}
