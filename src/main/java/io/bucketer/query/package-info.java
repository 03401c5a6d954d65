/**
 * Answers about one series over a time range, as MongoDB's schema-design article reads buckets: the
 * coarsest stored buckets inside the range, finer ones at its edges, and the open windows still in
 * the processor's state ({@code LiveWindows}, provided by the topology). Reads the bucket documents
 * by their names ({@code buckets.BucketDocumentNames}) and knows nothing of how they are written.
 * {@code StoredDocuments} reads them back whole, for the demo and the tests. With the sink, the
 * only package that talks to MongoDB.
 */
package io.bucketer.query;
