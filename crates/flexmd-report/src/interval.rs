//! The Wilson score interval: where a share measured on a sample of
//! answers plausibly lies. Unlike the normal approximation it stays inside
//! 0..1 and means something at 0 of 10 or 10 of 10, the shares a format
//! report meets most.

use serde::Serialize;

/// The normal quantile of a two-sided 95% interval.
const Z_95: f64 = 1.959_963_984_540_054;

/// A share's 95% confidence interval, both ends in `0.0..=1.0`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Interval {
    /// The lower end.
    pub low: f64,
    /// The upper end.
    pub high: f64,
}

/// The 95% Wilson score interval of `successes` out of `total`; `None` for
/// no trials (nothing to say).
///
/// ```
/// let half = flexmd_report::wilson_interval(5, 10).unwrap();
/// assert_eq!((format!("{:.4}", half.low), format!("{:.4}", half.high)), ("0.2366".into(), "0.7634".into()));
/// let none = flexmd_report::wilson_interval(0, 10).unwrap();
/// assert_eq!((none.low, format!("{:.4}", none.high)), (0.0, "0.2775".into()));
/// assert!(flexmd_report::wilson_interval(0, 0).is_none());
/// ```
#[must_use]
pub fn wilson_interval(successes: u64, total: u64) -> Option<Interval> {
    if total == 0 {
        return None;
    }
    // Counts beyond 2^53 lose their last digits as f64; a share does not.
    #[expect(clippy::cast_precision_loss, reason = "a share of counts")]
    let (x, n) = (successes.min(total) as f64, total as f64);
    let p = x / n;
    let z2 = Z_95 * Z_95;
    let denominator = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denominator;
    let half = Z_95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    // At 0 and at all, the end is exact (rounding left 5e-17 for 0 of 3).
    Some(Interval {
        low: if x == 0.0 {
            0.0
        } else {
            (center - half).clamp(0.0, 1.0)
        },
        high: if x == n {
            1.0
        } else {
            (center + half).clamp(0.0, 1.0)
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rounded(i: Interval) -> (String, String) {
        (format!("{:.4}", i.low), format!("{:.4}", i.high))
    }

    /// Reference values: Wilson's score interval as R's `prop.test(x, n,
    /// correct = FALSE)` and statsmodels' `proportion_confint(method =
    /// "wilson")` give it.
    #[test]
    fn known_values() {
        let cases = [
            ((10, 10), ("0.7225", "1.0000")),
            ((1, 10), ("0.0179", "0.4042")),
            ((81, 263), ("0.2553", "0.3662")),
            ((950, 1000), ("0.9347", "0.9619")),
            ((1, 1), ("0.2065", "1.0000")),
        ];
        // The ends exactly, not within rounding.
        for n in 1..200 {
            assert_eq!(wilson_interval(0, n).map(|i| i.low), Some(0.0), "0/{n}");
            assert_eq!(wilson_interval(n, n).map(|i| i.high), Some(1.0), "{n}/{n}");
        }
        for ((x, n), (low, high)) in cases {
            let got = wilson_interval(x, n).map(rounded);
            assert_eq!(got, Some((low.to_owned(), high.to_owned())), "{x}/{n}");
        }
    }

    proptest! {
        /// The interval holds the share, stays in 0..1, and narrows as the
        /// sample grows at the same share.
        #[test]
        fn holds_the_share_and_narrows(x in 0u64..1000, extra in 0u64..1000) {
            let n = x + extra + 1;
            let i = wilson_interval(x, n).unwrap_or(Interval { low: -1.0, high: -1.0 });
            #[expect(clippy::cast_precision_loss, reason = "test counts")]
            let p = x as f64 / n as f64;
            prop_assert!(0.0 <= i.low && i.low <= p + 1e-12 && p <= i.high + 1e-12 && i.high <= 1.0);
            let wider = wilson_interval(x * 4, n * 4).unwrap_or(i);
            prop_assert!(wider.high - wider.low <= i.high - i.low + 1e-12);
        }
    }
}
