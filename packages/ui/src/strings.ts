/**
 * The strings of this package's components and of the in-call screen both apps show (mute, camera, chat,
 * screen share, devices, network quality, the language switch), in English and Arabic, in one
 * namespace. Each app merges them into its translation resources at init (`ui`: `@lobby/ui/strings/en.json`
 * and `@lobby/ui/strings/ar.json`) and reads them as `t('ui:call.hangup')`.
 */
export const UI_NAMESPACE = 'ui';
