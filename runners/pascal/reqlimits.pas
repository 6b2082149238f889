{ Request limits (docs/protocol.md, "Limits"): a line too long, too deeply
  nested, not UTF-8, holding a NUL or empty is answered bad_request before it
  is parsed; the largest sizes a request may ask for. }
unit reqlimits;

{$mode objfpc}{$H+}

interface

const
  LINE_LIMIT = 192 shl 20; // bytes before the newline
  DEPTH_LIMIT = 64; // arrays and objects, the request object included
  MAX_GENERATED = Int64(1) shl 40;
  MAX_ITERATIONS = Int64(1) shl 40;
  MAX_BATCHES = Int64(1) shl 16;

{ The next line of stdin without its newline; False at EOF. A line over
  LINE_LIMIT is read to its end without being kept: TooLong is set. }
function ReadRequest(out Line: string; out TooLong: boolean): boolean;
{ Why the line is refused before parsing, or ''. }
function LineRefusal(const Line: string): string;

implementation

uses
  BaseUnix;

var
  Buf: array[0..65535] of char;
  BufPos, BufEnd: PtrInt;

function Fill: boolean;
var
  N: TSsize;
begin
  repeat
    N := FpRead(0, Buf[0], SizeOf(Buf));
  until (N >= 0) or (FpGetErrno <> ESysEINTR);
  BufPos := 0;
  if N < 0 then
    N := 0;
  BufEnd := N;
  Result := N > 0;
end;

function ReadRequest(out Line: string; out TooLong: boolean): boolean;
var
  Start, Len, Take: PtrInt;
  Any: boolean;
begin
  Line := '';
  Len := 0;
  TooLong := False;
  Any := False;
  while True do
  begin
    if (BufPos = BufEnd) and not Fill then
      Break;
    Any := True;
    Start := BufPos;
    while (BufPos < BufEnd) and (Buf[BufPos] <> #10) do
      Inc(BufPos);
    Take := BufPos - Start;
    if not TooLong and (Len + Take > LINE_LIMIT) then
    begin
      TooLong := True;
      Line := '';
    end;
    if not TooLong and (Take > 0) then
    begin
      if Len + Take > Length(Line) then
        SetLength(Line, 2 * (Len + Take));
      Move(Buf[Start], Line[Len + 1], Take);
      Inc(Len, Take);
    end;
    if BufPos < BufEnd then
    begin
      Inc(BufPos); // the newline
      Break;
    end;
  end;
  if TooLong then
    Len := 0;
  SetLength(Line, Len);
  while (Len > 0) and (Line[Len] = #13) do
    Dec(Len);
  SetLength(Line, Len);
  Result := Any;
end;

{ Length of the UTF-8 sequence at Line[I] (1-based), 0 when it is not one:
  no overlong forms, no surrogates, nothing above U+10FFFF. }
function Utf8Seq(const Line: string; I: PtrInt): PtrInt;
var
  B, Lo, Hi: byte;
  K, Need: PtrInt;
begin
  Result := 0;
  B := Ord(Line[I]);
  Lo := $80;
  Hi := $BF;
  if B < $80 then
    Exit(1)
  else if (B >= $C2) and (B <= $DF) then
    Need := 1
  else if (B >= $E0) and (B <= $EF) then
  begin
    Need := 2;
    if B = $E0 then
      Lo := $A0
    else if B = $ED then
      Hi := $9F;
  end
  else if (B >= $F0) and (B <= $F4) then
  begin
    Need := 3;
    if B = $F0 then
      Lo := $90
    else if B = $F4 then
      Hi := $8F;
  end
  else
    Exit;
  if I + Need > Length(Line) then
    Exit;
  for K := 1 to Need do
  begin
    B := Ord(Line[I + K]);
    if (B < Lo) or (B > Hi) then
      Exit;
    Lo := $80;
    Hi := $BF;
  end;
  Result := Need + 1;
end;

function LineRefusal(const Line: string): string;
var
  I, Depth, N: PtrInt;
  InString, Blank: boolean;
  C: char;
begin
  Result := '';
  Depth := 0;
  InString := False;
  Blank := True;
  I := 1;
  while I <= Length(Line) do
  begin
    C := Line[I];
    if C = #0 then
      Exit('request line holds a NUL byte');
    if not (C in [' ', #9, #13]) then
      Blank := False;
    if Ord(C) < $80 then
      N := 1
    else
      N := Utf8Seq(Line, I);
    if N = 0 then
      Exit('request line is not UTF-8');
    if InString then
    begin
      if C = '\' then
      begin
        if Copy(Line, I + 1, 5) = 'u0000' then
          Exit('a \u0000 escape (no request field holds a NUL)');
        Inc(N);
      end
      else if C = '"' then
        InString := False;
    end
    else if C = '"' then
      InString := True
    else if C in ['[', '{'] then
    begin
      Inc(Depth);
      if Depth > DEPTH_LIMIT then
        Exit('JSON nested deeper than 64 levels');
    end
    else if C in [']', '}'] then
      Dec(Depth);
    Inc(I, N);
  end;
  if Blank then
    Result := 'empty request line';
end;

end.
