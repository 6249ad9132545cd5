import "./chart-setup";

export { type Marker } from "./chart-setup";
export { CategoryBreakdownChart, CategoryStackedChart } from "./category-bar-chart";
export { RateLineChart } from "./rate-line-chart";
export { Sparkline } from "./sparkline";
