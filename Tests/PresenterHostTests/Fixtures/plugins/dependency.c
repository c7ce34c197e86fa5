/* A library the missing_dependency fixture links against; the tests delete
 * it after linking, so loading that fixture fails. */
int fixture_dependency_value(void) { return 7; }
