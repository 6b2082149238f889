{ pascal/openssl: FPC's OpenSSL binding (unit openssl, fp-units-net), which
  loads libcrypto at run time; EVP digests through the calls it binds. }
unit lib_openssl;

{$mode objfpc}{$H+}

interface

uses
  registry;

{ False (and Reason) when libcrypto cannot be loaded or set up. }
function OpenSSLLibrary(out Lib: TLibrary; out Reason: string): boolean;

implementation

uses
  SysUtils, ctypes, openssl;

var
  MdCtx: PEVP_MD_CTX = nil;

{ One message: EVP_DigestInit/Update/Final on the context set up once. }
function DigestEvp(Ctx: Pointer; Msg: PByte; Len: PtrUInt; Output: PByte): boolean;
var
  N: cuint;
begin
  Result := (EVP_DigestInit(MdCtx, PEVP_MD(Ctx)) = 1) and
    (EVP_DigestUpdate(MdCtx, Msg, Len) = 1) and (EVP_DigestFinal(MdCtx, Output, @N) = 1);
end;

const
  { Native: the name given to EVP_get_digestbyname; Ctx: the EVP_MD it returns. }
  Table: array[0..3] of TPrimitive = (
    (Id: 'md5'; Native: 'MD5'; OutLen: 16; Fn: @DigestEvp; Ctx: nil),
    (Id: 'sha1'; Native: 'SHA1'; OutLen: 20; Fn: @DigestEvp; Ctx: nil),
    (Id: 'sha256'; Native: 'SHA256'; OutLen: 32; Fn: @DigestEvp; Ctx: nil),
    (Id: 'sha512'; Native: 'SHA512'; OutLen: 64; Fn: @DigestEvp; Ctx: nil));

{ FPC 3.2.2's binding tries libcrypto.so, then sonames .1.1 down to .0.9.1:
  OpenSSL 3's libcrypto.so.3 is found only through libssl-dev's unversioned
  link. Without it, put '.3' in the list (its last, long-gone entry). }
function LoadLibcrypto: boolean;
begin
  Result := InitSSLInterface;
  if Result then
    Exit;
  DLLVersions[High(DLLVersions)] := '.3';
  Result := InitSSLInterface;
end;

{ 'OpenSSL 3.0.19 27 Jan 2026' -> '3.0.19' }
function LibcryptoVersion: string;
var
  Words: TStringArray;
begin
  Words := OpenSSLGetVersion(0).Split([' ']);
  if Length(Words) >= 2 then
    Result := Words[1]
  else
    Result := 'unknown';
end;

procedure Describe(out Lib: TLibrary);
begin
  Lib.Name := 'openssl';
  Lib.Version := {$I %FPCVERSION%};
  Lib.BackendName := 'openssl';
  Lib.BackendVersion := LibcryptoVersion;
  Lib.CodePath := 'OpenSSL''s own assembly, chosen at run time from CPUID';
  Lib.Notes := 'FPC''s openssl unit; per message EVP_DigestInit/Update/Final on one ' +
    'EVP_MD_CTX with the legacy EVP_MD of EVP_get_digestbyname (the binding has no ' +
    'EVP_MD_fetch, so OpenSSL 3 fetches the provider digest at every init)';
end;

{ Fills the table's EVP_MDs; the name of the first one missing, or ''. }
function FetchDigests(var Lib: TLibrary): string;
var
  I: integer;
begin
  Result := '';
  SetLength(Lib.Primitives, Length(Table));
  for I := 0 to High(Table) do
  begin
    Lib.Primitives[I] := Table[I];
    Lib.Primitives[I].Ctx := EVP_get_digestbyname(PChar(Table[I].Native));
    if Lib.Primitives[I].Ctx = nil then
      Exit(Table[I].Native);
  end;
end;

function OpenSSLLibrary(out Lib: TLibrary; out Reason: string): boolean;
var
  Missing: string;
begin
  Lib := Default(TLibrary);
  Reason := 'libcrypto/libssl not found under the sonames FPC''s openssl unit knows';
  if not LoadLibcrypto then
    Exit(False);
  Describe(Lib);
  MdCtx := EVP_MD_CTX_new;
  Reason := 'EVP_MD_CTX_new failed';
  if MdCtx = nil then
    Exit(False);
  Missing := FetchDigests(Lib);
  Reason := 'EVP_get_digestbyname(' + Missing + ') returned nil';
  Result := Missing = '';
  if Result then
    Reason := '';
end;

end.
