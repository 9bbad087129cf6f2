"""Hardware side of the pipeline: device calibration with fio
(`fio_profile`, `calibration_plot`), the host fingerprint (`fingerprint`,
`system_table`) and the memory-limited benchmark runner (`cgroup_run`).

Every module is a command: `python -m hardware.<module> --help` from the
repository root.
"""
