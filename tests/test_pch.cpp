// The file companyos_test_pch compiles: the test programs share its precompiled header
// (nlohmann/json, GoogleTest, GoogleMock; see the top-level CMakeLists.txt).
