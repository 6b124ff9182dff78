// Declared parameters (Ramulator 2's idiom): each component's configuration struct
// declares its parameters once, beside the code that uses them, in a member
//
//   template <class V> void declare(V& v) {
//     v.integer("latency", latency, {.min = 1, .max = 100000, .unit = "cycles", .doc = "..."});
//   }
//
// and every consumer walks those declarations with a visitor: the loader (values from
// YAML files related by `base:`, then --set overrides; defaults; ranges; unknown and
// duplicate keys; file:line in every error), `gpusim params` (each value and where it
// came from) and the generated docs/config-reference.md.
#pragma once

#include <yaml-cpp/yaml.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gpusim::params {

// Range, default, unit and description of a number.
template <typename T>
struct Spec {
  T min{};
  T max{};
  std::optional<T> def{};
  std::string_view unit{};
  std::string_view doc{};
};

struct FlagSpec {
  std::optional<bool> def{};
  std::string_view doc{};
};

struct TextSpec {
  std::optional<std::string_view> def{};
  std::string_view doc{};
};

// One allowed value of a choice: a plug-in's name, or an enumerator's.
struct Option {
  std::string name;
  std::string description;
};

// The options of a plug-in registry (util/registry.hpp), in name order.
template <typename Registry>
std::vector<Option> options_of(const Registry& r) {
  std::vector<Option> out;
  for (const auto& [name, entry] : r.entries()) out.push_back({name, entry.description});
  return out;
}

template <typename E>
struct Choice {
  std::string_view name;
  E value;
  std::string_view description;
};

// A value with its own syntax: parse throws through `fail`, format prints it back.
template <typename T>
struct CustomSpec {
  std::string_view type;  // how the docs name its form, e.g. "MAJOR.MINOR"
  std::function<T(const YAML::Node&, const std::function<void(const std::string&)>& fail)> parse;
  std::function<std::string(const T&)> format;
  std::optional<T> def{};
  std::string_view doc{};
};

// What is known about one declared parameter (or section), for listings and docs.
struct ParamInfo {
  std::string path;  // dotted, from the top: "memory.dram.latency"
  bool is_section = false;
  bool optional_section = false;  // may be `none`
  std::string type;               // "integer", "number", "boolean", "string", "one of", ...
  std::string unit;
  std::string range;              // "1 .. 100000"; for a choice, its names
  std::vector<Option> options;
  std::optional<std::string> default_text;  // empty: required
  std::string doc;
  std::string value;  // the current value, formatted; "none" for an absent section
};

// Where a value came from.
struct Origin {
  enum class Kind { File, Override, Default };
  Kind kind = Kind::Default;
  std::string file;  // the file, or "--set 'PATH=VALUE'"
  int line = 0;
  std::string text() const;  // "configs/x.yaml:12", "--set 'PATH=VALUE'", "default"
};

using Origins = std::map<std::string, Origin>;

// The settings of one configuration: its file, the files it names as `base:` (most
// derived first), and --set overrides in front of them all.
class Layers {
 public:
  // Loads `path` and its chain of bases; throws util::InputError on unreadable or
  // malformed files, a base that does not exist, or a cycle of bases.
  static Layers from_file(const std::string& path);
  // The same with the file's text given (its bases are still read from disk, beside `path`).
  static Layers from_text(const std::string* text, const std::string& path);
  // "a.b.c=value": the value is parsed as YAML. Throws util::InputError when malformed.
  void add_override(const std::string& assignment);

  struct Found {
    YAML::Node node;
    Origin origin;
  };
  // The most derived setting of a dotted path; nullopt when no layer sets it (or a more
  // derived layer replaced a section on the way with a scalar such as `none`).
  std::optional<Found> find(const std::string& path) const;

  // Throws util::InputError for keys that are not declared (neither a leaf nor a section
  // in `declared`), duplicate keys, and non-scalar keys, naming file:line.
  void check_keys(const std::set<std::string>& leaves, const std::set<std::string>& sections,
                  const std::set<std::string>& optional_sections) const;

  const std::string& file() const { return layers_.back().origin.file; }  // the file itself

 private:
  struct Layer {
    YAML::Node root;
    Origin origin;  // kind and file; line unused
  };
  std::vector<Layer> layers_;  // base first, overrides last
};

// Formats a number as the shortest text that reads back the same.
std::string format_number(double v);

// --- Visitors ---------------------------------------------------------------

// Collects ParamInfo for every declared parameter, with the current values.
class Describer {
 public:
  template <typename S>
  static std::vector<ParamInfo> describe(S& root) {
    Describer d;
    root.declare(d);
    return std::move(d.out_);
  }

  template <typename T>
  void integer(std::string_view key, T& field, const Spec<int64_t>& s) {
    add(key, "integer", s.unit, std::to_string(s.min) + " .. " + std::to_string(s.max),
        s.def ? std::optional(std::to_string(*s.def)) : std::nullopt, s.doc, std::to_string(field));
  }
  void number(std::string_view key, double& field, const Spec<double>& s) {
    add(key, "number", s.unit, format_number(s.min) + " .. " + format_number(s.max),
        s.def ? std::optional(format_number(*s.def)) : std::nullopt, s.doc, format_number(field));
  }
  void flag(std::string_view key, bool& field, const FlagSpec& s) {
    add(key, "boolean", "", "true, false", s.def ? std::optional(std::string(*s.def ? "true" : "false")) : std::nullopt,
        s.doc, field ? "true" : "false");
  }
  void text(std::string_view key, std::string& field, const TextSpec& s) {
    add(key, "string", "", "", s.def ? std::optional(std::string(*s.def)) : std::nullopt, s.doc, field);
  }
  template <size_t N>
  void integers(std::string_view key, std::array<int64_t, N>& field, const Spec<int64_t>& s) {
    std::string value = "[";
    for (size_t i = 0; i < N; ++i) value += (i ? ", " : "") + std::to_string(field[i]);
    add(key, "list of " + std::to_string(N) + " integers", s.unit,
        std::to_string(s.min) + " .. " + std::to_string(s.max) + " each", std::nullopt, s.doc, value + "]");
  }
  void plugin(std::string_view key, std::string& field, const std::vector<Option>& options, const TextSpec& s) {
    add_choice(key, options, s.def ? std::optional(std::string(*s.def)) : std::nullopt, s.doc, field);
  }
  template <typename E>
  void choice(std::string_view key, E& field, const std::vector<Choice<E>>& choices, std::optional<E> def,
              std::string_view doc) {
    std::vector<Option> options;
    std::string value, def_text;
    for (const auto& c : choices) {
      options.push_back({std::string(c.name), std::string(c.description)});
      if (c.value == field) value = c.name;
      if (def && c.value == *def) def_text = c.name;
    }
    add_choice(key, options, def ? std::optional(def_text) : std::nullopt, doc, value);
  }
  template <typename T>
  void custom(std::string_view key, T& field, const CustomSpec<T>& s) {
    add(key, std::string(s.type), "", "", s.def ? std::optional(s.format(*s.def)) : std::nullopt, s.doc,
        s.format(field));
  }
  template <typename S>
  void section(std::string_view key, S& sub, std::string_view doc) {
    open(key, doc, false, "");
    sub.declare(*this);
    close();
  }
  template <typename S>
  void optional_section(std::string_view key, std::optional<S>& sub, std::string_view doc) {
    open(key, doc, true, sub ? "" : "none");
    S scratch{};
    if (sub) sub->declare(*this);
    else scratch.declare(*this);  // still list what it would take
    close();
  }
  template <typename F>
  void check(F&&) {}

 private:
  void add(std::string_view key, std::string type, std::string_view unit, std::string range,
           std::optional<std::string> def, std::string_view doc, std::string value);
  void add_choice(std::string_view key, const std::vector<Option>& options, std::optional<std::string> def,
                  std::string_view doc, std::string value);
  void open(std::string_view key, std::string_view doc, bool optional, std::string value);
  void close();

  std::vector<std::string> prefix_;
  std::vector<bool> absent_;  // inside an absent optional section: values are not shown
  std::vector<ParamInfo> out_;
};

// Reports a broken cross-field rule of one section with the file and line of the key.
class Checker {
 public:
  Checker(const std::string& section, const Origins& origins, const std::string& fallback)
      : section_(section), origins_(origins), fallback_(fallback) {}
  // "file:line: section.key: reason", the line being the key's (or its section's).
  [[noreturn]] void fail(std::string_view key, const std::string& reason) const;
  // "file:line: section: reason", for a rule about the section as a whole.
  [[noreturn]] void fail_section(const std::string& reason) const;
  void require(bool ok, std::string_view key, const std::string& reason) const {
    if (!ok) fail(key, reason);
  }

 private:
  std::string where(const std::string& path) const;
  std::string section_;
  const Origins& origins_;
  std::string fallback_;
};

// Reads every declared parameter from Layers into the struct, recording origins.
class Loader {
 public:
  explicit Loader(const Layers& layers) : layers_(layers) {}

  template <typename S>
  static Origins load(const Layers& layers, S& root) {
    {  // every key in every layer must be declared, and no key may appear twice
      Collector c;
      S scratch{};
      scratch.declare(c);
      layers.check_keys(c.leaves, c.sections, c.optional_sections);
    }
    Loader l(layers);
    l.origins_[""] = {Origin::Kind::File, layers.file(), 0};
    root.declare(l);
    return std::move(l.origins_);
  }

  template <typename T>
  void integer(std::string_view key, T& field, const Spec<int64_t>& s) {
    const auto v = read_integer(key, s.min, s.max, s.def);
    if (v) field = static_cast<T>(*v);
  }
  void number(std::string_view key, double& field, const Spec<double>& s);
  void flag(std::string_view key, bool& field, const FlagSpec& s);
  void text(std::string_view key, std::string& field, const TextSpec& s);
  template <size_t N>
  void integers(std::string_view key, std::array<int64_t, N>& field, const Spec<int64_t>& s) {
    const std::vector<int64_t> v = read_integer_list(key, N, s.min, s.max);
    for (size_t i = 0; i < N; ++i) field[i] = v[i];
  }
  void plugin(std::string_view key, std::string& field, const std::vector<Option>& options, const TextSpec& s);
  template <typename E>
  void choice(std::string_view key, E& field, const std::vector<Choice<E>>& choices, std::optional<E> def,
              std::string_view) {
    std::vector<Option> options;
    for (const auto& c : choices) options.push_back({std::string(c.name), ""});
    std::optional<std::string> def_name;
    for (const auto& c : choices)
      if (def && c.value == *def) def_name = std::string(c.name);
    const std::string name = read_choice(key, options, def_name);
    for (const auto& c : choices)
      if (c.name == name) field = c.value;
  }
  template <typename T>
  void custom(std::string_view key, T& field, const CustomSpec<T>& s) {
    const auto found = lookup(key);
    if (!found) {
      if (!s.def) missing(key);
      field = *s.def;
      return;
    }
    field = s.parse(found->node, [&](const std::string& reason) { fail(key, *found, reason); });
  }
  template <typename S>
  void section(std::string_view key, S& sub, std::string_view) {
    enter_section(key, false);
    sub.declare(*this);
    leave_section();
  }
  template <typename S>
  void optional_section(std::string_view key, std::optional<S>& sub, std::string_view) {
    if (!enter_section(key, true)) {
      sub.reset();
      leave_section();
      return;
    }
    sub.emplace();
    sub->declare(*this);
    leave_section();
  }
  // Cross-field rules of the current section, run after its fields are read.
  template <typename F>
  void check(F&& rule) {
    const Checker c(joined(), origins_, layers_.file());
    rule(c);
  }

 private:
  // Collects the declared paths (a describe pass over a default-constructed struct).
  struct Collector {
    std::vector<std::string> prefix;
    std::set<std::string> leaves, sections, optional_sections;
    std::string path(std::string_view key) const;
    template <typename T>
    void integer(std::string_view k, T&, const Spec<int64_t>&) { leaves.insert(path(k)); }
    void number(std::string_view k, double&, const Spec<double>&) { leaves.insert(path(k)); }
    void flag(std::string_view k, bool&, const FlagSpec&) { leaves.insert(path(k)); }
    void text(std::string_view k, std::string&, const TextSpec&) { leaves.insert(path(k)); }
    template <size_t N>
    void integers(std::string_view k, std::array<int64_t, N>&, const Spec<int64_t>&) { leaves.insert(path(k)); }
    void plugin(std::string_view k, std::string&, const std::vector<Option>&, const TextSpec&) { leaves.insert(path(k)); }
    template <typename E>
    void choice(std::string_view k, E&, const std::vector<Choice<E>>&, std::optional<E>, std::string_view) {
      leaves.insert(path(k));
    }
    template <typename T>
    void custom(std::string_view k, T&, const CustomSpec<T>&) { leaves.insert(path(k)); }
    template <typename S>
    void section(std::string_view k, S& sub, std::string_view) {
      sections.insert(path(k));
      prefix.emplace_back(k);
      sub.declare(*this);
      prefix.pop_back();
    }
    template <typename S>
    void optional_section(std::string_view k, std::optional<S>&, std::string_view) {
      sections.insert(path(k));
      optional_sections.insert(path(k));
      prefix.emplace_back(k);
      S scratch{};
      scratch.declare(*this);
      prefix.pop_back();
    }
    template <typename F>
    void check(F&&) {}
  };

  std::optional<Layers::Found> lookup(std::string_view key);  // records the origin
  std::optional<int64_t> read_integer(std::string_view key, int64_t min, int64_t max, std::optional<int64_t> def);
  std::vector<int64_t> read_integer_list(std::string_view key, size_t count, int64_t min, int64_t max);
  std::string read_choice(std::string_view key, const std::vector<Option>& options,
                          const std::optional<std::string>& def);
  [[noreturn]] void missing(std::string_view key) const;
  [[noreturn]] void fail(std::string_view key, const Layers::Found& at, const std::string& reason) const;
  bool enter_section(std::string_view key, bool optional);  // false: an absent optional section
  void leave_section() { prefix_.pop_back(); }
  std::string joined() const;
  std::string path(std::string_view key) const;

  const Layers& layers_;
  std::vector<std::string> prefix_;
  Origins origins_;
};

}  // namespace gpusim::params
