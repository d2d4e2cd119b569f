#include "store/statement_cache.h"

namespace companyos::store {

StatementLease::StatementLease(Statement fresh) : fresh_(std::move(fresh)) {
  statement_ = &*fresh_;
}

StatementLease::StatementLease(StatementLease&& other) noexcept
    : fresh_(std::move(other.fresh_)), statement_(other.statement_), busy_(other.busy_) {
  if (fresh_) statement_ = &*fresh_;
  other.statement_ = nullptr;
  other.busy_ = nullptr;
}

StatementLease::~StatementLease() {
  if (busy_ == nullptr) return;  // fresh statements finalize themselves
  (void)statement_->reset();
  *busy_ = false;
}

Result<StatementLease> StatementCache::prepare(std::string_view sql) {
  auto found = entries_.find(sql);
  if (found != entries_.end() && !found->second.busy) {
    found->second.busy = true;
    return StatementLease(&found->second.statement, &found->second.busy);
  }
  auto compiled = db_.prepare(sql);
  if (!compiled) return std::move(compiled).take_error();
  if (found != entries_.end()) return StatementLease(std::move(compiled).value());
  auto [entry, inserted] = entries_.emplace(std::string(sql), Entry{std::move(compiled).value()});
  entry->second.busy = true;
  return StatementLease(&entry->second.statement, &entry->second.busy);
}

}  // namespace companyos::store
