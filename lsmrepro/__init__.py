"""Python side of the pipeline: config, raw-log parsing, aggregation, claims, report."""
