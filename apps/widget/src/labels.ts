// The launcher's own few strings (the call page itself is translated by the guest app).
export type WidgetLanguage = 'en' | 'ar';

export const labels: Record<WidgetLanguage, { call: string; inCall: string; close: string; newWindow: string; refused: string; answered: string }> = {
  en: {
    call: 'Call us',
    inCall: 'Back to the call',
    close: 'Close',
    newWindow: 'Open in a new window',
    refused: 'The call page cannot open inside this website.',
    answered: 'Your call was answered',
  },
  ar: {
    call: 'اتصل بنا',
    inCall: 'العودة إلى المكالمة',
    close: 'إغلاق',
    newWindow: 'فتح في نافذة جديدة',
    refused: 'لا يمكن فتح صفحة المكالمة داخل هذا الموقع.',
    answered: 'تم الرد على مكالمتك',
  },
};
