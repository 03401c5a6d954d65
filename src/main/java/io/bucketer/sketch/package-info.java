/**
 * Quantiles that roll up: {@link io.bucketer.sketch.ValueSketch}, a mergeable sketch of a window's
 * values from which p50, p95 or any quantile is read within a stated relative error. A median or a
 * p95 cannot be computed from the summaries a window keeps (count, sum, min, max, spread), and the
 * readings are gone once minutes roll up into hours and ranges: a sketch is the small, mergeable
 * stand-in for them.
 *
 * <p>The package exists to keep the library behind one class: DataDog's DDSketch ({@code
 * com.datadoghq:sketches-java}) is used here and nowhere else (ArchitectureTest), and what the rest
 * of bucketer sees is immutable bytes in one format of bucketer's own, pinned by a golden file, so
 * that a library upgrade which changed its encoding fails the build instead of changing stored
 * documents. Why DDSketch and not Apache DataSketches' KLL, with the measurements:
 * docs/quantiles.md.
 */
package io.bucketer.sketch;
