"""gpusim's calibration: measure microbenchmarks on a GPU, fit the model's parameters by
running gpusim on the same microbenchmarks, and write an architecture file (validate/calibrate)."""
