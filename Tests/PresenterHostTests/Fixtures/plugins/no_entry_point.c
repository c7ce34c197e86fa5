/* A valid shared library that is not a presenter plugin: no entry point. */
int fixture_not_a_plugin(void) { return 42; }
