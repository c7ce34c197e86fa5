// FoundationEssentials (no ICU): the Foundation a host could link instead.
import FoundationEssentials

print(ProcessInfo.processInfo.arguments.count)
