// Why ThreadSanitizer reports races on state that only Synchronization's Mutex guards.
//
// Eight threads change one value under one lock, 20,000 times each; the same code runs
// with Swift's Mutex ("mutex") or with a pthread_mutex_t ("pthread"). Built with
// `swiftc -O -sanitize=thread mutex-probe.swift`, Swift 6.3.1 on Debian 12 gave 10 reports
// for "mutex" and none for "pthread", run after run: Mutex's contended path waits with
// the futex system call inside the standard library, which is not instrumented and which
// ThreadSanitizer does not intercept, so it never sees the unlock happen before the next
// lock. pthread_mutex_lock is intercepted. The reports are ThreadSanitizer's blind spot,
// not races; `suppressions` lists the two places where the unit tests hit it.
import Glibc
import Synchronization

final class Shared: @unchecked Sendable {
  var items: [Int] = []
  var flag = false

  func change(_ value: Int) {
    items.append(value)
    if items.count > 64 { items = [] }
    flag.toggle()
  }
}

let shared = Shared()
let mutex = Mutex(0)
let usesPthread = CommandLine.arguments.dropFirst().first == "pthread"
nonisolated(unsafe) var pthreadMutex = pthread_mutex_t()
pthread_mutex_init(&pthreadMutex, nil)

var threads: [pthread_t] = []
for index in 0..<8 {
  var thread = pthread_t()
  let body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { argument in
    let base = Int(bitPattern: argument) * 100_000
    for step in 0..<20_000 {
      if usesPthread {
        pthread_mutex_lock(&pthreadMutex)
        shared.change(base + step)
        pthread_mutex_unlock(&pthreadMutex)
      } else {
        mutex.withLock { _ in shared.change(base + step) }
      }
    }
    return nil
  }
  pthread_create(&thread, nil, body, UnsafeMutableRawPointer(bitPattern: index + 1))
  threads.append(thread)
}
for thread in threads { pthread_join(thread, nil) }
print(usesPthread ? "pthread" : "mutex", shared.items.count)
