//! The report's charts, drawn as SVG by `plotters`: the page carries no
//! charting script, needs nothing fetched, and prints as it shows. Every
//! text a chart draws (group names, codes, sections) is escaped by the SVG
//! backend.

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::tally::{GroupSummary, TOKEN_BUCKETS};

/// A chart's SVG, or why it could not be drawn.
pub(crate) type Drawn = Result<String, String>;

/// The groups' colours (Tableau 10), in turn.
const GROUP_COLORS: [RGBColor; 10] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(89, 161, 79),
    RGBColor(225, 87, 89),
    RGBColor(118, 183, 178),
    RGBColor(237, 201, 72),
    RGBColor(176, 122, 161),
    RGBColor(255, 157, 167),
    RGBColor(156, 117, 95),
    RGBColor(186, 176, 172),
];

pub(crate) const VALID: RGBColor = RGBColor(46, 125, 50);
pub(crate) const LENIENT: RGBColor = RGBColor(230, 160, 20);
pub(crate) const ERROR: RGBColor = RGBColor(198, 40, 40);
pub(crate) const REPAIR: RGBColor = RGBColor(40, 96, 168);
const INK: RGBColor = RGBColor(40, 40, 40);

/// Group `i`'s colour.
pub(crate) fn group_color(i: usize) -> RGBColor {
    GROUP_COLORS
        .get(i % GROUP_COLORS.len())
        .copied()
        .unwrap_or(INK)
}

/// `text` cut to `max` characters, with an ellipsis when cut.
pub(crate) fn short(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

/// A percentage of `part` in `whole`.
#[expect(clippy::cast_precision_loss, reason = "a share of counts")]
pub(crate) fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("{e:?}")
}

fn label(values: &[String], v: &SegmentValue<usize>) -> String {
    match v {
        SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
            values.get(*i).cloned().unwrap_or_default()
        }
        SegmentValue::Last => String::new(),
    }
}

/// `n` categories, numbered from 0: an axis whose segments hold one each.
/// (plotters' integer ranges map a range of one value to 0 rather than to
/// the axis' start, which draws a one-group chart upside down.)
#[derive(Clone, Copy)]
struct Categories(usize);

impl plotters::coord::ranged1d::Ranged for Categories {
    type FormatOption = plotters::coord::ranged1d::DefaultFormatting;
    type ValueType = usize;

    fn map(&self, value: &usize, limit: (i32, i32)) -> i32 {
        let last = i64::try_from(self.0.saturating_sub(1)).unwrap_or(i64::MAX);
        if last == 0 {
            return limit.0;
        }
        let at = i64::try_from(*value).unwrap_or(i64::MAX);
        let span = i64::from(limit.1) - i64::from(limit.0);
        i32::try_from(i64::from(limit.0) + span.saturating_mul(at) / last).unwrap_or(limit.1)
    }

    fn key_points<H: plotters::coord::ranged1d::KeyPointHint>(&self, _hint: H) -> Vec<usize> {
        (0..self.0).collect()
    }

    fn range(&self) -> std::ops::Range<usize> {
        0..self.0
    }
}

impl plotters::coord::ranged1d::DiscreteRanged for Categories {
    fn size(&self) -> usize {
        self.0.max(1)
    }

    fn index_of(&self, value: &usize) -> Option<usize> {
        (*value < self.0.max(1)).then_some(*value)
    }

    fn from_index(&self, index: usize) -> Option<usize> {
        (index < self.0.max(1)).then_some(index)
    }
}

/// `n` categories as a segmented axis.
fn segments(n: usize) -> plotters::coord::ranged1d::SegmentedCoord<Categories> {
    Categories(n).into_segmented()
}

/// Where segment `i` of `n` starts: past the last one, the axis' end.
fn edge(i: usize, n: usize) -> SegmentValue<usize> {
    if i >= n {
        SegmentValue::Last
    } else {
        SegmentValue::Exact(i)
    }
}

/// The axes' label and description style.
fn axis_font() -> TextStyle<'static> {
    ("sans-serif", 13).into_font().color(&INK)
}

fn dims(n: usize, per: u32, min: u32, max: u32) -> u32 {
    u32::try_from(n)
        .unwrap_or(u32::MAX)
        .saturating_mul(per)
        .clamp(min, max)
}

/// Each group's valid share (strictly valid, and valid only leniently,
/// stacked) with its 95% interval as a whisker.
pub(crate) fn valid_shares(labels: &[String], groups: &[&GroupSummary]) -> Drawn {
    let n = groups.len();
    let width = dims(n, 110, 420, 1_000) + 60;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, 300)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(48)
            .build_cartesian_2d(segments(n), 0f64..100f64)
            .map_err(err)?;
        let names: Vec<String> = labels.iter().map(|l| short(l, 18)).collect();
        chart
            .configure_mesh()
            .label_style(axis_font())
            .axis_desc_style(axis_font())
            .light_line_style(TRANSPARENT)
            .disable_x_mesh()
            .x_labels(n)
            .x_label_formatter(&|v| label(&names, v))
            .y_desc("answers valid (%)")
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()
            .map_err(err)?;
        let bar = |i: usize, from: f64, to: f64, color: RGBColor| {
            let mut r = Rectangle::new([(edge(i, n), from), (edge(i + 1, n), to)], color.filled());
            r.set_margin(0, 0, 18, 18);
            r
        };
        for (i, g) in groups.iter().enumerate() {
            let strict = percent(g.valid.saturating_sub(g.lenient), g.answers);
            let all = percent(g.valid, g.answers);
            // An empty bar is not drawn (a rectangle of no height is an
            // SVG error).
            let bars = [(0.0, strict, VALID), (strict, all, LENIENT)]
                .into_iter()
                .filter(|(from, to, _)| to > from)
                .map(|(from, to, color)| bar(i, from, to, color));
            chart.draw_series(bars).map_err(err)?;
            if let Some(interval) = &g.valid_interval {
                let (low, high) = (interval.low * 100.0, interval.high * 100.0);
                let x = SegmentValue::CenterOf(i);
                let style = INK.stroke_width(2);
                chart
                    .draw_series([PathElement::new(
                        vec![(x.clone(), low), (x.clone(), high)],
                        style,
                    )])
                    .map_err(err)?;
                for y in [low, high] {
                    chart
                        .draw_series([EmptyElement::at((x.clone(), y))
                            + PathElement::new(vec![(-7, 0), (7, 0)], style)])
                        .map_err(err)?;
                }
            }
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// One bar of [`codes`]: a code, its kind's colour and its count.
pub(crate) struct CodeBar {
    pub(crate) code: String,
    pub(crate) color: RGBColor,
    pub(crate) count: u64,
}

/// One group's codes as horizontal bars, each the share of the group's
/// answers that has it (the same codes, in the same order, in every
/// group's chart, so they compare).
pub(crate) fn codes(bars: &[CodeBar], answers: u64) -> Drawn {
    let drawn: Vec<Bar> = bars
        .iter()
        .map(|b| {
            let p = percent(b.count, answers);
            Bar {
                label: &b.code,
                color: b.color,
                value: p,
                text: format!("{} ({p:.0}%)", b.count),
            }
        })
        .collect();
    horizontal_bars(&drawn, 100.0, "% of the group's answers")
}

/// Totals by kind as horizontal bars, with their counts.
pub(crate) fn totals(kinds: &[(String, u64)], color: RGBColor, unit: &str) -> Drawn {
    #[expect(clippy::cast_precision_loss, reason = "a chart's scale")]
    let drawn: Vec<Bar> = kinds
        .iter()
        .map(|(kind, count)| Bar {
            label: kind,
            color,
            value: *count as f64,
            text: count.to_string(),
        })
        .collect();
    let top = drawn.iter().map(|b| b.value).fold(1.0, f64::max) * 1.15;
    horizontal_bars(&drawn, top, unit)
}

/// One bar of [`horizontal_bars`].
struct Bar<'a> {
    label: &'a str,
    color: RGBColor,
    value: f64,
    /// Written at the bar's end.
    text: String,
}

/// Labelled horizontal bars on a scale from 0 to `top` (a bar of 0 is left
/// out: a rectangle of no width is an SVG error).
fn horizontal_bars(bars: &[Bar<'_>], top: f64, x_desc: &str) -> Drawn {
    let n = bars.len();
    let height = dims(n, 24, 60, 2_000) + 50;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (640, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(210)
            .build_cartesian_2d(0f64..top, segments(n))
            .map_err(err)?;
        // The first bar on top: plotters' y axis grows upwards.
        let names: Vec<String> = bars.iter().rev().map(|b| short(b.label, 30)).collect();
        chart
            .configure_mesh()
            .label_style(axis_font())
            .axis_desc_style(axis_font())
            .light_line_style(TRANSPARENT)
            .disable_y_mesh()
            .y_labels(n)
            .y_label_formatter(&|v| label(&names, v))
            .x_desc(x_desc)
            // Whole numbers only: a scale of counts has no half repair.
            .x_label_formatter(&|v| {
                if (v - v.round()).abs() < 1e-9 {
                    format!("{v:.0}")
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(err)?;
        for (i, b) in bars
            .iter()
            .enumerate()
            .map(|(i, b)| (n - 1 - i, b))
            .filter(|(_, b)| b.value > 0.0)
        {
            let mut r = Rectangle::new(
                [(0.0, edge(i, n)), (b.value, edge(i + 1, n))],
                b.color.filled(),
            );
            r.set_margin(4, 4, 0, 0);
            // Past 80% of the scale the text goes inside the bar, in white.
            let (at, ink, anchor) = if b.value > 0.8 * top {
                (b.value - top / 100.0, WHITE, HPos::Right)
            } else {
                (b.value + top / 100.0, INK, HPos::Left)
            };
            let text = Text::new(
                b.text.clone(),
                (at, SegmentValue::CenterOf(i)),
                ("sans-serif", 12)
                    .into_font()
                    .color(&ink)
                    .pos(Pos::new(anchor, VPos::Center)),
            );
            chart.draw_series([r]).map_err(err)?;
            chart.draw_series([text]).map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// What a heat map's cells count.
pub(crate) struct HeatPanel<'a> {
    pub(crate) title: &'a str,
    pub(crate) color: RGBColor,
    /// `cells[row][column]`: answers with that problem.
    pub(crate) cells: Vec<Vec<u64>>,
}

/// Groups (rows, top to bottom) × sections (columns), one panel per kind
/// of problem: each cell the share of the row's answers with that problem
/// in that section. Groups go down, so many of them stay readable.
pub(crate) fn heat_map(
    rows: &[String],
    columns: &[String],
    row_answers: &[u64],
    panels: &[HeatPanel<'_>],
) -> Drawn {
    let (n_rows, n_cols) = (rows.len(), columns.len());
    let panel_width = dims(n_cols, 90, 200, 900);
    let label_width = 170;
    let width = label_width + panel_width * u32::try_from(panels.len()).unwrap_or(1);
    let height = dims(n_rows, 28, 56, 3_000) + 80;
    // Row 0 on top: plotters' y axis grows upwards.
    let at = |r: usize| n_rows.saturating_sub(r + 1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (left, rest) = root.split_horizontally(label_width + panel_width);
        let mut areas = vec![left];
        let mut rest = rest;
        for _ in 1..panels.len() {
            let (a, b) = rest.split_horizontally(panel_width);
            areas.push(a);
            rest = b;
        }
        let column_names: Vec<String> = columns.iter().map(|c| short(c, 12)).collect();
        let row_names: Vec<String> = (0..n_rows)
            .map(|y| rows.get(at(y)).map(|r| short(r, 22)).unwrap_or_default())
            .collect();
        for (p, (panel, area)) in panels.iter().zip(&areas).enumerate() {
            let mut chart = ChartBuilder::on(area)
                .caption(panel.title, ("sans-serif", 15))
                .margin(6)
                .x_label_area_size(30)
                .y_label_area_size(if p == 0 { label_width } else { 0 })
                .build_cartesian_2d(segments(n_cols), segments(n_rows))
                .map_err(err)?;
            chart
                .configure_mesh()
                .label_style(axis_font())
                .axis_desc_style(axis_font())
                .disable_mesh()
                .x_labels(n_cols)
                .y_labels(n_rows)
                .x_label_formatter(&|v| label(&column_names, v))
                .y_label_formatter(&|v| label(&row_names, v))
                .draw()
                .map_err(err)?;
            for (r, row) in panel.cells.iter().enumerate() {
                let y = at(r);
                for (c, &count) in row.iter().enumerate() {
                    let share = percent(count, row_answers.get(r).copied().unwrap_or(0)) / 100.0;
                    let fill = if count == 0 {
                        RGBColor(245, 245, 245).filled()
                    } else {
                        panel.color.mix(0.15 + 0.85 * share).filled()
                    };
                    let mut cell = Rectangle::new(
                        [
                            (edge(c, n_cols), edge(y, n_rows)),
                            (edge(c + 1, n_cols), edge(y + 1, n_rows)),
                        ],
                        fill,
                    );
                    cell.set_margin(1, 1, 1, 1);
                    chart.draw_series([cell]).map_err(err)?;
                    if count > 0 {
                        let ink = if share > 0.5 { WHITE } else { INK };
                        chart
                            .draw_series([Text::new(
                                count.to_string(),
                                (SegmentValue::CenterOf(c), SegmentValue::CenterOf(y)),
                                ("sans-serif", 12)
                                    .into_font()
                                    .color(&ink)
                                    .pos(Pos::new(HPos::Center, VPos::Center)),
                            )])
                            .map_err(err)?;
                    }
                }
            }
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The buckets' names (`<50`, `50–99`, …, `≥10000`).
pub(crate) fn bucket_names() -> Vec<String> {
    let mut names = Vec::new();
    let mut from = 0;
    for to in TOKEN_BUCKETS {
        names.push(if from == 0 {
            format!("<{to}")
        } else {
            format!("{from}–{}", to - 1)
        });
        from = to;
    }
    names.push(format!("≥{from}"));
    names
}

/// Each group's answers by length in tokens, as shares of the group's
/// answers whose text is known: one line per group.
pub(crate) fn lengths(labels: &[String], groups: &[&GroupSummary]) -> Drawn {
    let buckets = bucket_names();
    let n = buckets.len();
    let shares: Vec<Vec<f64>> = groups
        .iter()
        .map(|g| {
            let known: u64 = g.tokens.iter().map(|b| b.answers).sum();
            g.tokens.iter().map(|b| percent(b.answers, known)).collect()
        })
        .collect();
    let top = shares
        .iter()
        .flatten()
        .copied()
        .fold(10.0f64, f64::max)
        .min(100.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 320)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(48)
            .build_cartesian_2d(segments(n), 0f64..top * 1.1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .label_style(axis_font())
            .axis_desc_style(axis_font())
            .light_line_style(TRANSPARENT)
            .disable_x_mesh()
            .x_labels(n)
            .x_label_formatter(&|v| label(&buckets, v))
            .x_desc("answer length (tokens, o200k)")
            .y_desc("% of the group's answers")
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()
            .map_err(err)?;
        for (i, (name, values)) in labels.iter().zip(&shares).enumerate() {
            let color = group_color(i);
            let points: Vec<(SegmentValue<usize>, f64)> = values
                .iter()
                .enumerate()
                .map(|(b, &v)| (SegmentValue::CenterOf(b), v))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                .map_err(err)?
                .label(short(name, 24))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(3))
                });
            chart
                .draw_series(
                    points
                        .into_iter()
                        .map(|p| Circle::new(p, 3, color.filled())),
                )
                .map_err(err)?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(200, 200, 200))
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}
