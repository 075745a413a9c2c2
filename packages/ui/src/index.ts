/**
 * @lobby/ui: the components, styles and small view helpers that the guest app and the console share.
 * Rule (enforced by lint): it imports React, lucide icons and react-i18next only — never an app, never
 * @lobby/call. Texts come from the app's own translation strings (the component names the keys).
 */
export { Avatar } from './Avatar.tsx';
export { Button, type ButtonProps } from './Button.tsx';
export { ChatPanel, type ChatEngine, type ChatPanelMessage, type ChatPanelProps } from './ChatPanel.tsx';
export { IconButton, type IconButtonProps } from './IconButton.tsx';
export { LanguageSwitch, type Language } from './LanguageSwitch.tsx';
export { Spinner } from './Spinner.tsx';
export { VideoTile, type VideoTileProps } from './VideoTile.tsx';
export { formatDuration, useElapsed, useNow } from './time.ts';
export { safeFileUrl } from './safeUrl.ts';
/** The button looks for elements that are not <button> (a link styled as a button). */
export { default as buttonStyles } from './Button.module.css';
/** The chat panel's styles: each app's ChatPanel renders its own content with them. */
export { default as chatPanelStyles } from './ChatPanel.module.css';
