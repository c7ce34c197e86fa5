// The Swift runtime alone: what any Swift process pays to start.
print(CommandLine.arguments.count)
