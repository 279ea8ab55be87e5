// The methods API's JSON: one method of the catalogue, every key present, in the real service's order.
import type { MethodOption, MethodRecord } from '../store/records';

/** "Klarna Payments" → "klarna-payments": a name as it appears in a logo's file name. */
export function slug(text: string): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s === '' ? 'method' : s;
}

/**
 * The path of a method's logo (or one of its options'), served by the sandbox itself on the API address.
 * Fidelity: a method whose real logo's file name is known keeps that name (SDK-NET's methods test reads
 * `mercadopago.gif` in MercadoPago's LogoURL); the picture is still the sandbox's own badge.
 */
export function logoPath(m: MethodRecord, option?: MethodOption): string {
  const logo = m.catalogue?.Logo;
  if (logo && !option) return `/images/methods/${logo}`;
  const base = logo ? logo.replace(/\.[a-z]+$/, '') : slug(m.name);
  return `/images/methods/${base}${option ? `-${slug(option.DisplayName)}` : ''}.svg`;
}

/**
 * A method (`GET /v1/methods…`). Fidelity: without `additionalDetails` the lists leave the validators
 * and options out (null); one method's own read always carries them.
 */
export function methodToWire(m: MethodRecord, baseUrl: string, details: boolean) {
  const c = m.catalogue ?? {};
  return {
    ID: m.methodId,
    DisplayName: m.name,
    Description: c.Description ?? '',
    LogoURL: baseUrl + logoPath(m),
    Guaranteed: c.Guaranteed ?? false,
    Active: c.Active ?? true,
    SupportIframe: c.SupportIframe ?? false,
    IframeWidth: c.IframeWidth ?? 0,
    IframeHeight: c.IframeHeight ?? 0,
    Countries: c.Countries ?? [],
    Currencies: c.Currencies ?? [],
    DetailsURL: c.DetailsURL ?? null,
    ValidatorsPayin: details ? (c.ValidatorsPayin ?? []).map((v) => ({ Source: v.Source, Regex: v.Regex, Required: v.Required })) : null,
    ValidatorsRecurrent: details ? (c.ValidatorsRecurrent ?? []).map((v) => ({ Source: v.Source, Regex: v.Regex, Required: v.Required })) : null,
    Options: details
      ? (c.Options ?? []).map((o) => ({
          ID: o.ID,
          DisplayName: o.DisplayName,
          Description: o.Description ?? '',
          LogoURL: baseUrl + logoPath(m, o),
          Guaranteed: o.Guaranteed ?? false,
        }))
      : null,
  };
}
