/**
 * The loop detector: settings, the streaming `RunDetector`, batch detection
 * and the `loopscope detect` report.
 */
export {
  type DetectorConfig,
  type DetectorConfigKey,
  type ConfigFieldError,
  type ParsedDetectorConfig,
  DEFAULT_DETECTOR_CONFIG,
  DETECTOR_PRESETS,
  type DetectorPresetName,
  listUnknownConfigKeys,
  parseDetectorConfig,
  resolveDetectorConfig,
} from "./config";
export type {
  Finding,
  FindingEvidence,
  FindingSignal,
  BudgetSignal,
  ProgressSignal,
  TaskLoopType,
  TaskRecommendation,
} from "./findings";
export { RunDetector, type CycleState, type NodeState } from "./run-detector";
export { detectRun, orderRunEvents } from "./batch";
export { parseInstant } from "./instant";
export {
  buildDetectReport,
  formatDetectTable,
  type DetectReport,
  type DetectReportRun,
  type DetectReportError,
  type DetectReportInput,
  type DetectReportFinding,
  type FindingLocation,
} from "./report";
