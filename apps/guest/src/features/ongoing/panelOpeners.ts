/** The ids of the call's buttons that open a side panel: the panel gives the focus back to its button when it closes. */
export const CHAT_BUTTON_ID = 'call-chat-button';
export const DEVICES_BUTTON_ID = 'call-devices-button';
