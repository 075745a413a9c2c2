/**
 * @lobby/call-react: the in-call UI both apps share, a small React layer over the engine
 * (docs/architecture.md "In-call UI"): the pure stage layout, the call bar, the devices fields and the
 * hooks under them. Rule (enforced by lint): it imports @lobby/call (types only, so that nothing of the
 * engine loads with a component), @lobby/ui, React, lucide icons and react-i18next — never an app.
 */
export { stageLayout, SCREEN_SUFFIX, type StageInput, type StageLayout } from './stageLayout.ts';
export { CallBar, type CallBarProps, type CallBarActions, type PanelToggle } from './CallBar.tsx';
export { useScreenShare, type ScreenShare, type ScreenShareEngine } from './screenShare.ts';
export { DeviceFields, type DeviceFieldsProps } from './DeviceFields.tsx';
export { useDeviceList, useDeviceChange, currentDeviceId, type DeviceList, type DeviceChange, type DeviceChangeEngine } from './devices.ts';
export { OthersColumn } from './OthersColumn.tsx';
export { VolumeSlider } from './VolumeSlider.tsx';
export { NoiseSuppressionSwitch } from './NoiseSuppressionSwitch.tsx';
export { rememberedNoiseSuppression, useNoiseSuppression, type NoiseSuppressionEngine } from './noiseSuppression.ts';
export { callMedia, callPanels, callStageStatus, type CallMediaState, type CallPanels, type CallStageStatus } from './selectors.ts';
