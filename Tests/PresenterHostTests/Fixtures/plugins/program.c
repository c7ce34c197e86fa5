/* A program, not a library: built as a plain executable (-no-pie) and as a
 * position-independent one (-pie), both of which a loader must refuse. */
int main(void) { return 0; }
