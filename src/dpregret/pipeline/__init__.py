"""The pipeline layer: the config and its schema (config.schema.yaml, composed with each paper folder's
part), the jobs the workflow runs, the user door (api), the non-learners, errata, the report and the
mutation suite, and the pinned pytest plugin.  It may import every layer below it (papers, verdict, core); nothing below
imports it."""
