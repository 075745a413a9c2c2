/**
 * @lobby/ui: the components, styles and small view helpers that the guest app and the console share.
 * Rule (enforced by lint): it imports React, lucide icons and react-i18next only — never an app, never
 * @lobby/call. Texts come from the app's own translation strings (the component names the keys).
 */
export { Avatar } from './Avatar.tsx';
export { Button, type ButtonProps } from './Button.tsx';
export { ScreenTile, SelfView, StageOthers, type SelfViewProps, type StageOthersProps, type StageStream } from './CallStage.tsx';
export { ChatButton, type ChatButtonProps } from './ChatButton.tsx';
export { ChatPanel, type ChatEngine, type ChatPanelMessage, type ChatPanelProps } from './ChatPanel.tsx';
export { IconButton, type IconButtonProps } from './IconButton.tsx';
export { LanguageSwitch, type Language } from './LanguageSwitch.tsx';
export { NetworkQuality, type NetworkQualityLevel, type NetworkQualityProps } from './NetworkQuality.tsx';
export { SidePanel, DeviceSelect, type SidePanelProps, type DeviceSelectProps } from './SidePanel.tsx';
export { Spinner } from './Spinner.tsx';
export { VideoTile, type VideoTileProps } from './VideoTile.tsx';
export { formatDuration, useElapsed, useNow } from './time.ts';
export { safeFileUrl } from './safeUrl.ts';
export { toggleLocalTracks } from './tracks.ts';
export { UI_NAMESPACE } from './strings.ts';
/** The button looks for elements that are not <button> (a link styled as a button). */
export { default as buttonStyles } from './Button.module.css';
/** The side panel's styles (field, error) for the controls inside it. */
export { default as sidePanelStyles } from './SidePanel.module.css';
/** The call stage's shared pieces (remote, strip, otherTile, pill, badge, voiceKind, timerHeld). */
export { default as stageStyles } from './CallStage.module.css';
/** The chat panel's styles: each app's ChatPanel renders its own content with them. */
export { default as chatPanelStyles } from './ChatPanel.module.css';
