// Foundation and FoundationNetworking (libcurl and some 30 more libraries).
import Foundation
import FoundationNetworking

print(ProcessInfo.processInfo.arguments.count, URLRequest.self)
