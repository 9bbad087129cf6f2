"""Workloads: the dataset catalogue, dataset materialisation and manifests,
SOSD downloads. The C++ side (YCSB generators, datagen) is built with
workloads/CMakeLists.txt."""
