"""Stage plan: what a scale runs. `studies` reads the registry, each
study's experiments.yaml and a scale (`load_scale`, validated once; callers
pass the dict on) into runs with readable ids and their shared loads;
`config` validates config/config.yaml; `targets` lists, prices and checks
the state of every study/figure target from measured job times. Pure
functions of the repository's files and results/: nothing here starts a
job."""
