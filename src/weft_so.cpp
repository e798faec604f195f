// The shared runtime: every layer, linked into one library (see CMakeLists.txt).
