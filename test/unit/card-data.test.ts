// What counts as a card number or a security code, and text of every shape with them masked.
import { cardRuns, isCardNumber, isSecurityCodeKey, isTimeOrIdKey, maskCardData, maskCardNumber, maskQuery, maskUrl, passesLuhn } from '../../src/domain/card-data';

const VISA = '4111111111111111';
const VISA_19 = '4111111111111111110'; // 19 digits, Luhn-valid
const AMEX = '378282246310005'; // 15 digits
const DINERS = '30569309025904'; // 14 digits
const MAESTRO_13 = '4222222222222'; // 13 digits
// A 14-digit time that passes the Luhn check (as one in ten do).
const LUHN_TIME = '20261127014102';

describe('the Luhn check and what is a card number', () => {
  it('passes the test cards and fails a changed digit', () => {
    for (const n of [VISA, VISA_19, AMEX, DINERS, MAESTRO_13, '5555555555554444', '6011111111111117']) expect(passesLuhn(n)).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(passesLuhn('')).toBe(false);
    expect(passesLuhn('41a1')).toBe(false);
  });

  it('takes 13 to 19 digits only', () => {
    expect(isCardNumber(MAESTRO_13)).toBe(true);
    expect(isCardNumber(VISA_19)).toBe(true);
    expect(isCardNumber('000000000000')).toBe(false); // 12 digits
    expect(isCardNumber('00000000000000000000')).toBe(false); // 20 digits
    expect(passesLuhn(LUHN_TIME)).toBe(true);
  });

  it('masks as the card API shows a card: brand and last four', () => {
    expect(maskCardNumber(VISA)).toBe('VISA-1111');
    expect(maskCardNumber('5555555555554444')).toBe('MASTERCARD-4444');
    expect(maskCardNumber(AMEX)).toBe('AMEX-0005');
    expect(maskCardNumber('6011111111111117')).toBe('DISCOVER-1117');
    expect(maskCardNumber(DINERS)).toBe('CARD-5904');
  });

  it('finds runs in groups, longest first, never inside a word or a longer run', () => {
    expect(cardRuns(`card ${VISA} ok`)).toEqual([[5, 21, VISA]]);
    expect(cardRuns('4111 1111 1111 1111')).toEqual([[0, 19, VISA]]);
    expect(cardRuns('4111-1111-1111-1111')).toEqual([[0, 19, VISA]]);
    expect(cardRuns(`2 ${VISA}`)).toEqual([[2, 18, VISA]]);
    expect(cardRuns(`A${VISA}`)).toEqual([]);
    expect(cardRuns(`${VISA}0000`)).toEqual([]); // 20 digits: not a card
  });
});

describe('keys', () => {
  it('knows security codes by key, any case and spelling', () => {
    for (const k of ['SecurityCode', 'securitycode', 'SECURITYCODE', 'CardSecurityCode', 'card_security_code', 'CVV', 'cvv2', 'CVC', 'Cvc2', 'CID', 'CSC', 'CVN', 'card[cvv]', 'Card.SecurityCode', 'cvv_code']) {
      expect([k, isSecurityCodeKey(k)]).toEqual([k, true]);
    }
    for (const k of ['Number', 'SocialSecurityNumber', 'PostalCode', 'ReasonCode', 'decide', 'Code']) expect([k, isSecurityCodeKey(k)]).toEqual([k, false]);
  });

  it('knows times and IDs by key', () => {
    for (const k of ['Created', 'startDate', 'endDate', 'NotificationDateTime', 'ExecutionDate', 'Since', 'Until', 'WallTime', 'ID', 'id', 'SiteID', 'MerchantTransactionID', 'PaymentIDs', 'methodId', 'payment_id', 'Payment[ID]']) {
      expect([k, isTimeOrIdKey(k)]).toEqual([k, true]);
    }
    for (const k of ['Number', 'Description', 'Paid', 'Valid', 'CID', 'Amount']) expect([k, isTimeOrIdKey(k)]).toEqual([k, false]);
  });
});

describe('maskCardData', () => {
  it('masks a card and its security code in JSON, keeping every other byte', () => {
    const body = `{"Payment": {"MerchantTransactionID": "${LUHN_TIME}", "Card": {"Number": "${VISA}", "SecurityCode": "123"}, "Amount": 12345678901234567890}}`;
    expect(maskCardData(body)).toBe(`{"Payment": {"MerchantTransactionID": "${LUHN_TIME}", "Card": {"Number": "VISA-1111", "SecurityCode": "***"}, "Amount": 12345678901234567890}}`);
  });

  it('reads JSON escapes in keys and values', () => {
    const body = `{"Card":{"Num\\u0062er":"\\u0034111111111111111","Security\\u0043ode":"123"}}`;
    expect(JSON.parse(maskCardData(body))).toEqual({ Card: { 'Number': 'VISA-1111', 'SecurityCode': '***' } });
  });

  it('masks a number sent as a JSON number, of any length up to 19 digits exactly', () => {
    expect(maskCardData(`{"Number":${VISA}}`)).toBe('{"Number":"VISA-1111"}');
    expect(maskCardData(`{"Number":${VISA_19}}`)).toBe('{"Number":"VISA-1110"}');
    expect(maskCardData(`{"cvv":123}`)).toBe('{"cvv":"***"}');
  });

  it('masks a top-level array, a bare number and a bare string', () => {
    expect(maskCardData(`[{"Card":{"Number":"${VISA}","CVV":"999"}}]`)).toBe('[{"Card":{"Number":"VISA-1111","CVV":"***"}}]');
    expect(maskCardData(VISA)).toBe('VISA-1111');
    expect(maskCardData(`"${VISA}"`)).toBe('"VISA-1111"');
  });

  it('keeps a Luhn-valid 14-digit time under a Created-like key, and masks it elsewhere', () => {
    expect(maskCardData(`{"Created":"${LUHN_TIME}","startDate":${LUHN_TIME},"ID":${LUHN_TIME}}`)).toBe(`{"Created":"${LUHN_TIME}","startDate":${LUHN_TIME},"ID":${LUHN_TIME}}`);
    expect(maskCardData(`{"Description":"${LUHN_TIME}"}`)).toBe('{"Description":"CARD-4102"}');
  });

  it('masks a security code under any key spelling, whatever it holds, but keeps null and empty', () => {
    expect(maskCardData('{"card":{"cvc2":"12","CardSecurityCode":{"v":"1234"},"csc":null,"cid":""}}')).toBe('{"card":{"cvc2":"***","CardSecurityCode":{"v":"***"},"csc":null,"cid":""}}');
  });

  it('masks JSON and forms nested in a string', () => {
    expect(JSON.parse(maskCardData(JSON.stringify({ Data: JSON.stringify({ cvv: '123', pan: VISA }) })))).toEqual({ Data: '{"cvv":"***","pan":"VISA-1111"}' });
    expect(maskCardData(JSON.stringify({ Note: `card ${VISA} cvv=123` }))).toBe('{"Note":"card VISA-1111 cvv=***"}');
  });

  it('masks a number in JSON nested in strings deeper than it reads as JSON', () => {
    let text = JSON.stringify({ Number: VISA });
    for (let i = 0; i < 6; i++) text = JSON.stringify({ Data: text });
    expect(maskCardData(text)).not.toContain('4111111111111111');
    expect(maskCardData(text)).toContain('VISA-1111');
  });

  it('masks malformed JSON by its pairs and digit runs', () => {
    const body = `{"Card": {"Number": "${VISA}", "SecurityCode": "123", "Created": "${LUHN_TIME}"`;
    expect(maskCardData(body)).toBe(`{"Card": {"Number": "VISA-1111", "SecurityCode": "***", "Created": "${LUHN_TIME}"`);
    expect(maskCardData(`{"Card": {"Num\\u0062er": "\\u0034111111111111111", "Security\\u0043ode": "123",`)).toBe('{"Card": {"Number": "VISA-1111", "SecurityCode": "***",');
    expect(maskCardData(`{Number: ${VISA}, cvv: 321}`)).toBe('{Number: VISA-1111, cvv: ***}');
  });

  it('masks form-encoded bodies, percent-encoded keys and values included', () => {
    expect(maskCardData(`number=${VISA}&cvv=123&SiteID=${LUHN_TIME}`)).toBe(`number=VISA-1111&cvv=***&SiteID=${LUHN_TIME}`);
    expect(maskCardData('Card%5BSecurityCode%5D=123&Card%5BNumber%5D=%34111111111111111')).toBe('Card%5BSecurityCode%5D=***&Card%5BNumber%5D=VISA-1111');
    expect(maskCardData('card[number]=4111+1111+1111+1111&card[cvv]=123')).toBe('card[number]=VISA-1111&card[cvv]=***');
  });

  it('masks plain text', () => {
    expect(maskCardData(`pay with 4111 1111 1111 1111 please\nCVV: 123\n`)).toBe('pay with VISA-1111 please\nCVV: ***\n');
  });

  it('leaves text without card data as it is, byte for byte', () => {
    for (const t of ['{"Payment":{"Amount":"1000","Currency":"EUR"}}', '{ "a" : "\\u00e9" }', 'not json at all', 'a=1&b=%zz', `{"x":"\\u0041", "broken"`, '']) {
      expect(maskCardData(t)).toBe(t);
    }
  });

  it('survives a body nested past reason', () => {
    const deep = '['.repeat(100000) + VISA + ']'.repeat(100000);
    expect(maskCardData(deep)).toBe('['.repeat(100000) + 'VISA-1111' + ']'.repeat(100000));
  });
});

describe('query strings and URLs', () => {
  it('masks a number and a security code in a query string, keeping times and IDs', () => {
    expect(maskQuery(`Number=${VISA}&cvv=123&startDate=${LUHN_TIME}`)).toBe(`Number=VISA-1111&cvv=***&startDate=${LUHN_TIME}`);
    expect(maskQuery(VISA)).toBe('VISA-1111');
    expect(maskUrl(`/v1/payments?q=${VISA}`)).toBe('/v1/payments?q=VISA-1111');
    expect(maskUrl('/v1/payments/4111111111111111')).toBe('/v1/payments/4111111111111111');
  });
});
