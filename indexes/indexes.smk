# lidx's microbenchmark, the tool of study engineering's runs (rule
# tool_run, lsmrepro/plan/tools.py): built from the headers it times.
import glob


rule build_lidx_bench:
    input:
        "indexes/CMakeLists.txt",
        "indexes/bench/lidx_bench.cc",
        sorted(glob.glob("indexes/include/lidx/**/*.h", recursive=True)),
    output:
        f"{BUILD}/indexes/lidx_bench",
    params:
        build=lambda w, output: os.path.dirname(output[0]),
    threads: workflow.cores
    priority: BUILD_PRIORITY
    conda:
        CONDA_ENV
    log:
        f"{BUILD}/logs/build/lidx_bench.log",
    shell:
        "(cmake -S indexes -B {params.build} -G Ninja -DCMAKE_BUILD_TYPE=Release -DLIDX_BUILD_TESTS=OFF"
        " -DLIDX_BUILD_BENCH=ON -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
        " && cmake --build {params.build} --target lidx_bench -j {threads}) > {log} 2>&1"
