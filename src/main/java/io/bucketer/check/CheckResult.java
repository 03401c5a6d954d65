package io.bucketer.check;

/**
 * One line of {@code bucketer check}: what was checked, of which dependency, whether it passed, and
 * in one line what was found or what is wrong. Never a secret, never an exception's class.
 */
public record CheckResult(String dependency, String check, boolean passed, String detail) {

  static CheckResult pass(final String dependency, final String check, final String detail) {
    return new CheckResult(dependency, check, true, detail);
  }

  static CheckResult fail(final String dependency, final String check, final String detail) {
    return new CheckResult(dependency, check, false, detail);
  }
}
