package io.bucketer.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

/**
 * CPU time this JVM's JIT compiler threads have used. The JDK's {@link CompilationMXBean} counts
 * the wall time compilations took, which on a loaded machine includes the time a compiler thread
 * waited for a core: it overstates their share. On Linux the compiler threads' own CPU time is read
 * ({@link NamedThreadsCpu}); elsewhere the bean's figure stands in.
 */
final class JitCpuTime {

  // A thread's name in stat is cut to 15 characters: "C2 CompilerThread0" reads "C2 CompilerThre".
  private static final String COMPILER_THREAD = "CompilerThre";

  private JitCpuTime() {}

  static long nanos() {
    return NamedThreadsCpu.nanos(name -> name.contains(COMPILER_THREAD))
        .orElseGet(JitCpuTime::beanNanos);
  }

  private static long beanNanos() {
    final CompilationMXBean compilation = ManagementFactory.getCompilationMXBean();
    return compilation != null && compilation.isCompilationTimeMonitoringSupported()
        ? TimeUnit.MILLISECONDS.toNanos(compilation.getTotalCompilationTime())
        : 0;
  }
}
