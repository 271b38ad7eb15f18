import AnnouncerCore
import ArgumentParser

/// A setting together with the property of an options group that holds its value.
struct SettingProperty<Group> {
  /// The setting.
  let setting: any AnySetting
  /// Checks the property's value, and fills it in from the environment when not given.
  let resolve: (inout Group, _ environment: [String: String]) throws -> Void
  /// Puts the property's value, when there is one, into an announcement.
  let apply: (Group, inout Announcement) -> Void

  /// Binds `setting` to the property of an option.
  init<Value>(_ setting: Setting<Value>, _ property: WritableKeyPath<Group, Value?>) {
    self.setting = setting
    resolve = { group, environment in
      group[keyPath: property] = try setting.resolved(group[keyPath: property], environment: environment)
    }
    apply = { group, announcement in
      if let value = group[keyPath: property] { setting.apply?(&announcement, value) }
    }
  }

  /// Binds `setting` to the property of a flag, which has no range and no variable.
  init(_ setting: Setting<Bool>, _ flag: KeyPath<Group, Bool>) {
    self.setting = setting
    resolve = { _, _ in }
    apply = { group, announcement in setting.apply?(&announcement, group[keyPath: flag]) }
  }
}

/// An options group whose options are settings: it resolves them and puts them into an
/// announcement through its list of ``properties``.
protocol SettingsGroup: ParsableArguments {
  /// Each setting of the group with its property, in the order of `--help`.
  static var properties: [SettingProperty<Self>] { get }
}

extension SettingsGroup {
  /// Checks every value, and fills in from the environment those that were not given.
  mutating func resolve(environment: [String: String]) throws {
    for property in Self.properties { try property.resolve(&self, environment) }
  }

  /// Puts every value that was given, or set by a variable, into `announcement`.
  func apply(to announcement: inout Announcement) {
    for property in Self.properties { property.apply(self, &announcement) }
  }
}

extension Option {
  /// The option that `setting` declares.
  init<Wrapped: ExpressibleByArgument>(_ setting: Setting<Wrapped>) where Value == Wrapped? {
    self.init(
      name: setting.names, parsing: setting.rule.isNumeric ? .unconditional : .next, help: setting.help,
      completion: setting.completion)
  }
}

extension Option where Value == Double? {
  /// The option that a setting of seconds declares: its value is read as ``DurationText``
  /// reads the variable's (``DurationText/optionValue(_:)``).
  init(_ setting: Setting<Double>) {
    self.init(
      name: setting.names, parsing: .unconditional, help: setting.help, completion: setting.completion,
      transform: DurationText.optionValue)
  }
}

extension DurationText {
  /// The seconds of an option's value, for ArgumentParser's `transform:`, so that every
  /// option that takes a duration reads it as its variable is read: `0x10` and `1e1` are
  /// refused, and `1m` is 60. A negative duration is passed on as negative, so that the
  /// option's range check names it as for any value out of range.
  static func optionValue(_ text: String) throws -> Double {
    if text.hasPrefix("-"), let seconds = seconds(in: String(text.dropFirst())) { return -seconds }
    guard let seconds = seconds(in: text) else {
      throw ValidationError(localized("it is not a duration, such as 3, 90s or 1m"))
    }
    return seconds
  }
}

extension Flag where Value == Bool {
  /// The flag that `setting` declares, off unless given.
  init(_ setting: Setting<Bool>) {
    self.init(wrappedValue: false, name: setting.names, help: ArgumentHelp(setting.summary + "."))
  }
}
