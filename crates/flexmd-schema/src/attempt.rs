//! One round of a retry loop (`Attempt`) and why a loop stopped without a
//! valid answer (`StopReason`): what `Retrier::run` and its error report.
//! A leaf above the violations: it runs no model.

use serde::Serialize;
use serde_json::Value;

use crate::violation::Violation;

/// One round of [`Retrier::run`](crate::Retrier::run).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Attempt {
    /// The prompt sent.
    pub prompt: String,
    /// The model's answer.
    pub answer: String,
    /// What was wrong with it; empty for the accepted answer.
    pub errors: Vec<Violation>,
    /// The data read from the answer (coerced; for a patch, merged into the
    /// previous data), valid or not; `None` when none was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    /// The cost of the coercions and repairs that read the data.
    pub cost: u32,
    /// Tokens in the prompt, counted with [`Retrier::count_tokens`](crate::Retrier::count_tokens).
    pub prompt_tokens: usize,
    /// Tokens in the answer.
    pub answer_tokens: usize,
    /// The attempt asked only for the failing fields ([`Retrier::patch`](crate::Retrier::patch)).
    pub patch: bool,
}

/// Why [`Retrier::run`](crate::Retrier::run) stopped without a valid answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// Every retry was used.
    Retries,
    /// The next prompt would pass [`Retrier::max_tokens_total`](crate::Retrier::max_tokens_total).
    TokenBudget,
}
