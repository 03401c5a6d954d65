/**
 * The {@code bucketer} command line (picocli): {@code run}, {@code check}, {@code dead-letters},
 * {@code simulate}, {@code demo}, {@code query}, {@code bench}, {@code config-reference}. Each
 * subcommand parses its options and hands over to the package that does the work; it may use any of
 * them.
 */
package io.bucketer.cli;
