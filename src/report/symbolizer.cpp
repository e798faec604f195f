#include "report/symbolizer.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace weft {
namespace {

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// libweft_symbolizer.so: next to the object this code is in (libweft.so, or an executable
// linked with weft's static libraries: then in ../lib, or ../WEFT_LIBDIR once installed),
// else wherever the dynamic loader finds it.
SymbolizerBackend* load_backend() {
  static const char kName[] = "libweft_symbolizer.so";
  std::vector<std::string> dirs;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&load_backend), &info) != 0 && info.dli_fname != nullptr &&
      info.dli_fname[0] == '/')
    dirs.push_back(directory_of(info.dli_fname));
  char exe[4096];
  if (const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1); n > 0)
    dirs.push_back(directory_of(std::string(exe, static_cast<std::size_t>(n))));
  std::vector<std::string> candidates;
  for (const std::string& d : dirs)
    for (const std::string& sub :
         {std::string("."), std::string("../lib"), std::string("../") + WEFT_LIBDIR})
      candidates.push_back(d + "/" + sub + "/" + kName);
  candidates.emplace_back(kName);
  for (const std::string& c : candidates) {
    void* handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) continue;
    using Factory = SymbolizerBackend* (*)();
    if (auto make = reinterpret_cast<Factory>(dlsym(handle, "weft_new_symbolizer_backend")))
      return make();
  }
  return nullptr;
}

}  // namespace

Symbolizer::Symbolizer() = default;
Symbolizer::~Symbolizer() = default;

SymbolizerBackend* Symbolizer::backend() {
  std::lock_guard lock(mutex_);
  if (!loaded_) {
    loaded_ = true;
    backend_.reset(load_backend());
  }
  return backend_.get();
}

const std::vector<Frame>& Symbolizer::frames(std::uintptr_t return_address) {
  static const std::vector<Frame> kNone;
  if (return_address <= 1) return kNone;
  return frames_at(return_address - 1);
}

const std::vector<Frame>& Symbolizer::frames_at(std::uintptr_t address) {
  static const std::vector<Frame> kNone;
  SymbolizerBackend* b = backend();
  return b == nullptr ? kNone : b->frames_at(address);
}

Frame Symbolizer::symbolize(std::uintptr_t return_address) {
  const std::vector<Frame>& f = frames(return_address);
  return f.empty() ? Frame{} : f.front();
}

std::string Symbolizer::variable(std::uintptr_t address) {
  SymbolizerBackend* b = backend();
  return b == nullptr ? "" : b->variable(address);
}

std::string Symbolizer::local_variable(std::uintptr_t address, std::uintptr_t pc,
                                       std::uintptr_t entry, std::uintptr_t cfa) {
  SymbolizerBackend* b = backend();
  return b == nullptr ? "" : b->local_variable(address, pc, entry, cfa);
}

std::vector<PointerLocal> Symbolizer::pointer_locals(std::uintptr_t pc, std::uintptr_t entry,
                                                     std::uintptr_t cfa, const WordReader& read) {
  SymbolizerBackend* b = backend();
  return b == nullptr ? std::vector<PointerLocal>{} : b->pointer_locals(pc, entry, cfa, read);
}

std::string Symbolizer::pointee_path(std::size_t pointee, std::uint64_t offset) {
  SymbolizerBackend* b = backend();
  if (b != nullptr) return b->pointee_path(pointee, offset);
  return offset == 0 ? "" : "+" + std::to_string(offset);
}

std::size_t Symbolizer::global_pointee(std::uintptr_t address, bool* reference) {
  SymbolizerBackend* b = backend();
  return b == nullptr ? 0 : b->global_pointee(address, reference);
}

std::vector<Symbolizer::CodeRange> Symbolizer::find_code(const std::vector<std::string>& patterns,
                                                         std::vector<bool>* matched) {
  if (SymbolizerBackend* b = backend()) return b->find_code(patterns, matched);
  matched->assign(patterns.size(), false);
  return {};
}

std::vector<Symbolizer::CodeRange> Symbolizer::find_variables(const std::string& pattern) {
  SymbolizerBackend* b = backend();
  return b == nullptr ? std::vector<CodeRange>{} : b->find_variables(pattern);
}

const std::string& Symbolizer::source_line(const std::string& file, int line) {
  static const std::string kEmpty;
  if (file.empty() || line <= 0) return kEmpty;
  std::lock_guard lock(mutex_);
  auto it = files_.find(file);
  if (it == files_.end()) {
    std::vector<std::string> lines;
    std::ifstream in(file, std::ios::binary);
    constexpr std::size_t kMaxLines = 1'000'000;  // not a source file; do not read it all
    std::string text;
    while (in && lines.size() < kMaxLines && std::getline(in, text)) {
      if (!text.empty() && text.back() == '\r') text.pop_back();
      std::size_t start = text.find_first_not_of(" \t");
      lines.push_back(start == std::string::npos ? std::string() : text.substr(start));
    }
    it = files_.emplace(file, std::move(lines)).first;
  }
  const std::vector<std::string>& lines = it->second;
  return static_cast<std::size_t>(line) <= lines.size() ? lines[line - 1] : kEmpty;
}

}  // namespace weft
