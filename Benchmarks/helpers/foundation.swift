// Foundation (with FoundationInternationalization and ICU's data).
import Foundation

print(ProcessInfo.processInfo.arguments.count)
