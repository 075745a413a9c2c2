import { describe, expect, it } from 'vitest';
import { ensureLanguage } from '../src/i18n/index.ts';
import { companyMessage } from '../src/i18n/companyMessage.ts';
import { company } from './helpers.tsx';

describe('companyMessage', () => {
  const c = company({ waitingMsg: 'Please wait', waitingMsg_ar: 'يرجى الانتظار', welcomeMsg: 'Hello' });

  it('when the language is Arabic and an _ar variant exists, then the _ar variant is picked', () => {
    expect(companyMessage(c, 'waitingMsg', 'ar')).toBe('يرجى الانتظار');
  });

  it('when the language is English, then the base field is picked', () => {
    expect(companyMessage(c, 'waitingMsg', 'en')).toBe('Please wait');
  });

  it('when the language is Arabic and no _ar variant exists, then the base field is picked', () => {
    expect(companyMessage(c, 'welcomeMsg', 'ar')).toBe('Hello');
  });

  it('when the company has neither, then the translated default is used', async () => {
    await ensureLanguage('ar');
    expect(companyMessage(c, 'thanksMsg', 'en')).toBe('Thank you for calling us.');
    expect(companyMessage(c, 'thanksMsg', 'ar')).toBe('شكرًا لاتصالك بنا.');
  });

  it('when a field is blank, then it counts as absent', () => {
    expect(companyMessage(company({ waitingMsg: '  ', waitingMsg_ar: '' }), 'waitingMsg', 'ar')).toMatch(/.+/);
    expect(companyMessage(company({ waitingMsg: '  ' }), 'waitingMsg', 'en')).not.toBe('  ');
  });
});
