# Stage run: benchmark jobs (lsmrepro/run/). A load is made once and shared
# by every run that starts from it; a run works on its own copy; an
# interleaved job runs its members taking turns in one lsmbench. Every job
# takes bench_lock and all cores (paper/README.md, "Run order").
import shlex


_load_inputs = bench_inputs(lambda w: load_rows(w)[0])
_group_inputs = bench_inputs(lambda w: group_rows(w)[0])
_run_inputs = [own_input(f) for f in bench_inputs(run_row)]


# A database loaded and settled once, shared by every run that starts from it
# (temp: removed when its last run is done).
rule bench_load:
    input:
        binary=_load_inputs[0],
        build_id=_load_inputs[1],
        dataset=_load_inputs[2],
        manifest=_load_inputs[3],
        fingerprint=f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
        calibration=f"{RESULTS}/{{scale}}/hardware/calibration.json",
        peers=lambda w: _peers(w.scale, load_rows(w)),
        key_lengths=lambda w: key_lengths_file(w.scale, load_rows(w)[0]),
    output:
        db=temp(directory(f"{RESULTS}/{{scale}}/db/loads/{{load}}")),
        log=f"{RESULTS}/{{scale}}/raw/loads/{{load}}.jsonl",
        limits=f"{RESULTS}/{{scale}}/raw/loads/{{load}}.limits.json",
    # Job times ./reproduce --estimate scales to other sizes.
    benchmark:
        f"{RESULTS}/{{scale}}/benchmarks/loads/{{load}}.tsv"
    params:
        limit=lambda w: bench_memory_limit(load_rows(w)[0], "load") or hardware_memory_limit(w),
        unenforced=hardware_unenforced_flag,
        args=lambda w: " ".join(load_rows(w)[0].load_args),
        key_lengths=key_lengths_arg,
        fsync=lambda w: "" if any(r.timed_loads for r in load_rows(w)) else "--defer-fsync",
    # The machine to itself: no build or generator competes for its cores.
    threads: workflow.cores
    resources:
        bench_lock=1,
        slurm_extra=hardware_slurm_extra,
    priority: lambda w: load_priority(w.scale, w.load)
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/loads/{{load}}.log",
    shell:
        "python -m lsmrepro.run.bench load --db {output.db} --log {output.log} --limits {output.limits}"
        " --memory {params.limit} {params.unenforced} {params.fsync} --"
        " {input.binary} --dataset {input.dataset} --dataset-manifest {input.manifest}"
        " --attach fingerprint={input.fingerprint} --attach calibration={input.calibration}"
        " --build-id {input.build_id} {params.args} {params.key_lengths}"
        " --meta scale={wildcards.scale} --meta load={wildcards.load} 2> {log}"


# The runs of a figure's `interleave` options, one repetition and condition:
# one lsmbench taking turns between their databases (each a copy of its
# load), one log each in the job's folder.
rule bench_group:
    input:
        binary=_group_inputs[0],
        build_id=_group_inputs[1],
        dataset=_group_inputs[2],
        manifest=_group_inputs[3],
        fingerprint=f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
        calibration=f"{RESULTS}/{{scale}}/hardware/calibration.json",
        load_dbs=lambda w: sorted({load_db(w.scale, r.load) for r in group_rows(w)}),
        load_logs=lambda w: sorted({f"{load_stem(w.scale, r.load)}.jsonl" for r in group_rows(w)}),
        peers=lambda w: _peers(w.scale, group_rows(w)),
        key_lengths=lambda w: key_lengths_file(w.scale, group_rows(w)[0]),
    output:
        out=directory(f"{RESULTS}/{{scale}}/raw/{{study}}/{{figure}}/interleaved/{{group}}/r{{rep}}"),
    benchmark:
        f"{RESULTS}/{{scale}}/benchmarks/{{study}}/{{figure}}/interleaved/{{group}}/r{{rep}}.tsv"
    params:
        limit=lambda w: bench_memory_limit(group_rows(w)[0]) or hardware_memory_limit(w),
        open_limit=hardware_memory_limit,
        unenforced=hardware_unenforced_flag,
        args=group_args,
        members=group_members,
        key_lengths=key_lengths_arg,
        cache=lambda w: group_rows(w)[0].cache,
        workdb=lambda w: f"{hardware_db_dir(w.scale)}/runs/{w.study}/{w.figure}/interleaved/{w.group}/r{w.rep}",
    threads: workflow.cores
    resources:
        bench_lock=1,
        slurm_extra=hardware_slurm_extra,
    priority: lambda w: run_priority(w.scale, w.study, w.figure, group_rows(w)[0].point, w.rep)
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/{{figure}}/interleaved/{{group}}/r{{rep}}.log",
    shell:
        "python -m lsmrepro.run.bench_group run --out {output.out} --members {params.members:q}"
        " --db {params.workdb} --cache {params.cache} --memory {params.limit} --open-memory {params.open_limit}"
        " {params.unenforced} --"
        " {input.binary} --dataset {input.dataset} --dataset-manifest {input.manifest}"
        " --attach fingerprint={input.fingerprint} --attach calibration={input.calibration}"
        " --build-id {input.build_id} {params.args} {params.key_lengths}"
        " --meta study={wildcards.study} --meta experiment={wildcards.figure}"
        " --meta scale={wildcards.scale} --meta repetition={wildcards.rep} 2> {log}"


# Any point of any study: a copy of its load's database, the run phase under
# the memory limit, one log; or, for a run of an interleaved job, its log
# and limits report copied from the job's folder.
rule bench_run:
    input:
        binary=_run_inputs[0],
        build_id=_run_inputs[1],
        dataset=_run_inputs[2],
        manifest=_run_inputs[3],
        fingerprint=own_input(lambda w: f"{RESULTS}/{w.scale}/hardware/fingerprint.json"),
        calibration=own_input(lambda w: f"{RESULTS}/{w.scale}/hardware/calibration.json"),
        load_db=own_input(lambda w: load_db(w.scale, run_row(w).load)),
        load_log=own_input(lambda w: f"{load_stem(w.scale, run_row(w).load)}.jsonl"),
        peers=own_input(lambda w: _peers(w.scale, [run_row(w)])),
        key_lengths=own_input(lambda w: key_lengths_file(w.scale, run_row(w))),
        interleaved=lambda w: group_dir(w.scale, run_row(w)) if run_row(w).group else [],
    output:
        log=f"{RESULTS}/{{scale}}/raw/{{study}}/{{figure}}/{{point}}/r{{rep}}.jsonl",
        limits=f"{RESULTS}/{{scale}}/raw/{{study}}/{{figure}}/{{point}}/r{{rep}}.limits.json",
    benchmark:
        f"{RESULTS}/{{scale}}/benchmarks/{{study}}/{{figure}}/{{point}}/r{{rep}}.tsv"
    params:
        limit=lambda w: bench_memory_limit(run_row(w)) or hardware_memory_limit(w),
        open_limit=hardware_memory_limit,
        unenforced=hardware_unenforced_flag,
        args=lambda w: " ".join(run_row(w).run_args),
        key_lengths=key_lengths_arg,
        cache=lambda w: run_row(w).cache,
        workdb=lambda w: f"{hardware_db_dir(w.scale)}/runs/{w.study}/{w.figure}/{w.point}/r{w.rep}",
        dataset=lambda w: run_row(w).dataset,
        load=lambda w: run_row(w).load,
        manifest=lambda w: lsm_studies.run_manifest(run_row(w)),
        interleaved=lambda w: "yes" if run_row(w).group else "",
    threads: lambda w: 1 if run_row(w).group else workflow.cores
    resources:
        bench_lock=lambda w: 0 if run_row(w).group else 1,
        slurm_extra=hardware_slurm_extra,
    priority: lambda w: run_priority(w.scale, w.study, w.figure, w.point, w.rep)
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/{{figure}}/{{point}}/r{{rep}}.log",
    shell:
        "if [ -n '{params.interleaved}' ]; then"
        " python -m lsmrepro.run.bench_group member --from {input.interleaved} --point {wildcards.point:q}"
        " --log {output.log} --limits {output.limits} 2> {log}; else"
        " python -m lsmrepro.run.bench run --from {input.load_db} --load-log {input.load_log}"
        " --db {params.workdb} --cache {params.cache} --log {output.log} --limits {output.limits}"
        " --manifest {params.manifest:q}"
        " --memory {params.limit} --open-memory {params.open_limit} {params.unenforced} --"
        " {input.binary} --dataset {input.dataset} --dataset-manifest {input.manifest}"
        " --attach fingerprint={input.fingerprint} --attach calibration={input.calibration}"
        " --build-id {input.build_id} {params.args} {params.key_lengths}"
        " --meta study={wildcards.study} --meta experiment={wildcards.figure}"
        " --meta scale={wildcards.scale} --meta dataset={params.dataset}"
        " --meta repetition={wildcards.rep} --meta point={wildcards.point}"
        " --meta load={params.load} 2> {log}; fi"


# One run of a microbenchmark (a figure's `tool`, lsmrepro/plan/tools.py):
# its CSV and a record of what ran on what machine load. It takes
# bench_lock as the engine runs do: nothing else measures beside it.
rule tool_run:
    input:
        unpack(lambda w: tool_files(w)),
        fingerprint=f"{RESULTS}/{{scale}}/hardware/fingerprint.json",
    output:
        csv=f"{RESULTS}/{{scale}}/raw/{{study}}/{{figure}}/{{point}}/r{{rep}}.csv",
        record=f"{RESULTS}/{{scale}}/raw/{{study}}/{{figure}}/{{point}}/r{{rep}}.tool.json",
    benchmark:
        f"{RESULTS}/{{scale}}/benchmarks/{{study}}/{{figure}}/{{point}}/r{{rep}}.tsv"
    params:
        command=lambda w: " ".join(shlex.quote(str(a)) for a in lsm_tools.command(
            tool_row(w), tool_files(w), f"{hardware_db_dir(w.scale)}/tools/{w.study}/{w.figure}/{w.point}/r{w.rep}")),
        builds=lambda w: " ".join(f"--build-input {shlex.quote(f)}" for role, f in tool_files(w).items()
                                  if role != "dataset"),
        manifest=lambda w: lsm_tools.manifest(tool_row(w)),
    threads: workflow.cores
    resources:
        bench_lock=1,
        slurm_extra=hardware_slurm_extra,
    conda:
        CONDA_ENV
    log:
        f"{RESULTS}/{{scale}}/logs/{{study}}/{{figure}}/{{point}}/r{{rep}}.log",
    shell:
        "python -m lsmrepro.run.tool --csv {output.csv} --record {output.record} --manifest {params.manifest:q}"
        " --fingerprint {input.fingerprint} --meta scale={wildcards.scale} {params.builds} -- {params.command} 2> {log}"
