import { createContext, type ReactNode, useContext } from "react";
import type instance from "./i18next";

// Stands in for react-i18next in the browser build only (vite.config.ts), over ./i18next.

type Instance = typeof instance;

const I18n = createContext<Instance | null>(null);

export const initReactI18next = { type: "3rdParty", init() {} };

export function I18nextProvider({ i18n, children }: { i18n: Instance; children: ReactNode }) {
  return <I18n.Provider value={i18n}>{children}</I18n.Provider>;
}

export function useTranslation() {
  const i18n = useContext(I18n);
  if (!i18n) throw new Error("useTranslation outside I18nextProvider");
  return { t: i18n.t, i18n };
}
